import { existsSync } from 'node:fs'
import path from 'node:path'
import { globals } from './globals.js'

/** Files that make a folder Jest's default `rootDir`: where its configuration lives. */
const ROOT_MARKERS = [
  'jest.config.js',
  'jest.config.cjs',
  'jest.config.mjs',
  'jest.config.ts',
  'jest.config.json',
  'package.json',
]

/**
 * Jest's `rootDir`. Jest does not expose its configuration to tests; its snapshot state keeps the root in the
 * private `_rootDir`. Without it: the nearest folder above the test file holding a Jest config file or a
 * package.json (how Jest picks its default), else the current directory.
 */
export function jestRoot(): string {
  const state = globals.expect.getState() as
    { testPath?: string; snapshotState?: { _rootDir?: unknown } } | undefined
  const rootDir = state?.snapshotState?._rootDir
  if (typeof rootDir === 'string' && rootDir !== '') {
    return rootDir
  }
  return state?.testPath === undefined ? process.cwd() : nearestConfigRoot(state.testPath)
}

function nearestConfigRoot(file: string): string {
  for (let directory = path.dirname(file); ; directory = path.dirname(directory)) {
    if (ROOT_MARKERS.some((marker) => existsSync(path.join(directory, marker)))) {
      return directory
    }
    if (path.dirname(directory) === directory) {
      return process.cwd()
    }
  }
}
