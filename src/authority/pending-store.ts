import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import type { Evidence } from '../evidence/schema.js'
import { writeFileAtomicSync } from '../internal/write-file-atomic.js'
import { authorityFileText } from './authority-text.js'
import { authorityFingerprint, isPendingOf, pendingPathFor } from './pending-path.js'

/**
 * Where the matchers touch pending captures on disk: writing one beside its authority after a local mismatch,
 * and removing those a later run made stale. (Reviewing them is `src/review/`.)
 */

export type PendingWrite =
  | {
      readonly state: 'written'
      readonly pending: string
      /** A pending capture of this authority was there before (an earlier run's, or another test's at once). */
      readonly replaced: boolean
    }
  | { readonly state: 'failed'; readonly pending: string | null; readonly code: string }

/**
 * Writes the capture as the pending capture of `authorityPath`: the bytes `-u` would write there
 * (`authorityFileText`), whole or not at all, named after the authority file as it is now (`pendingPathFor`).
 * Any other pending capture of the authority (compared with an earlier version of it) is removed. Failures are
 * returned with the operating system's code, never thrown: the assertion fails anyway and says so.
 */
export function writePendingCapture(authorityPath: string, evidence: Evidence): PendingWrite {
  let pending: string | null = null
  try {
    pending = pendingPathFor(authorityPath, authorityFingerprint(readFileSync(authorityPath)))
    const others = pendingCapturesOf(authorityPath)
    writeFileAtomicSync(pending, authorityFileText(evidence))
    for (const other of others.filter((file) => file !== pending)) {
      rmSync(other, { force: true })
    }
    return { state: 'written', pending, replaced: others.length > 0 }
  } catch (error) {
    return { state: 'failed', pending, code: (error as NodeJS.ErrnoException).code ?? String(error) }
  }
}

export interface PendingRemoval {
  readonly removed: readonly string[]
  /** Files that could not be removed, with the operating system's error code. */
  readonly failed: readonly { readonly file: string; readonly code: string }[]
}

/** Removes every pending capture of `authorityPath`: the authority was matched, written or removed since. */
export function removePendingCaptures(authorityPath: string): PendingRemoval {
  const removed: string[] = []
  const failed: { file: string; code: string }[] = []
  for (const file of pendingCapturesOf(authorityPath)) {
    try {
      rmSync(file)
      removed.push(file)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error)
      // Gone meanwhile (another worker removed it): what was asked is done.
      if (code !== 'ENOENT') {
        failed.push({ file, code })
      }
    }
  }
  return { removed, failed }
}

/** The pending captures of an authority, of any fingerprint; none when its folder is missing or unreadable. */
export function pendingCapturesOf(authorityPath: string): string[] {
  const folder = path.dirname(authorityPath)
  if (!existsSync(folder)) {
    return []
  }
  let names: string[]
  try {
    names = readdirSync(folder)
  } catch {
    // An unreadable folder holds nothing REA could remove either.
    return []
  }
  return names
    .filter((name) => isPendingOf(name, authorityPath))
    .sort()
    .map((name) => path.join(folder, name))
}
