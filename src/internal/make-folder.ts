import { mkdirSync, statSync } from 'node:fs'
import path from 'node:path'

/**
 * Creates `folder` and any missing parents, like `mkdirSync(folder, { recursive: true })`, but ends with the
 * system's error where that one never returns: Node 20's recursive mkdir takes ENOENT for a missing parent and
 * retries forever where creating is refused that way (`/proc/x/y`: measured, a CPU-bound loop no signal ends).
 */
export function makeFolder(folder: string): void {
  try {
    mkdirSync(folder)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST' && statSync(folder).isDirectory()) {
      return
    }
    const parent = path.dirname(folder)
    if (code !== 'ENOENT' || parent === folder) {
      throw error
    }
    makeFolder(parent)
    // The parent exists now: a second refusal is the answer.
    mkdirSync(folder)
  }
}
