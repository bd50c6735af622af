import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
export const PROGRAMS = path.join(REPO_ROOT, 'test/fixtures/programs')
/** The supervisor's native waiter, where the install script builds it in this checkout. */
export const SUPERVISOR_WAITER = path.join(REPO_ROOT, 'native/linux/build/Release/rea-supervisor')

/** Absolute path of a fixture program in test/fixtures/programs. */
export function program(name: string): string {
  return path.join(PROGRAMS, name)
}
