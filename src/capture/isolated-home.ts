import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** The variables that point a program at its user's configuration, cache and data. */
const XDG_FOLDERS: Readonly<Record<string, string>> = {
  XDG_CONFIG_HOME: '.config',
  XDG_CACHE_HOME: '.cache',
  XDG_DATA_HOME: '.local/share',
  XDG_STATE_HOME: '.local/state',
}

/** A fresh, empty home for one capture, and how to remove it. */
export interface IsolatedHome {
  /** HOME and the XDG variables, pointing into the fresh folder. */
  readonly environment: Readonly<Record<string, string>>
  readonly remove: () => void
}

/**
 * Makes the fresh home a scenario with `home: "isolated"` runs in: an empty folder of its own (mode 0700) in the
 * temporary directory, so `~/.gitconfig`, `~/.npmrc` or `~/.config/…` of whoever runs the tests cannot change
 * what the program does. The XDG folders are named inside it but not made: a program makes what it needs, as on
 * a new account. The home placeholder replaces its path like any other HOME.
 */
export function makeIsolatedHome(): IsolatedHome {
  const home = mkdtempSync(path.join(os.tmpdir(), 'rea-home-'))
  return {
    environment: {
      HOME: home,
      ...Object.fromEntries(
        Object.entries(XDG_FOLDERS).map(([name, folder]) => [name, path.join(home, folder)]),
      ),
    },
    remove: () => rmSync(home, { recursive: true, force: true }),
  }
}
