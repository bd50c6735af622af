import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { AUTHORITY_DIRECTORY } from './authority-path.js'
import type { CaptureFolder } from './obsolete-authorities.js'
import { removePendingCaptures } from './pending-store.js'

/**
 * The only place the obsolete-authority check touches the disk: reading `__captures__` folders and removing the
 * files the decision names (`-u`).
 */

/**
 * The `__captures__/<test file>/` folders next to the given test files: theirs, and those of other test files in
 * the same folders, whose test file may be gone. Only folders that hold test files are looked in, so build
 * output and copies elsewhere in a project are never touched.
 */
export function readCaptureFolders(testFiles: readonly string[]): CaptureFolder[] {
  const folders: CaptureFolder[] = []
  for (const directory of new Set(testFiles.map((file) => path.dirname(file)))) {
    const captures = path.join(directory, AUTHORITY_DIRECTORY)
    for (const name of entryNames(captures, 'directory')) {
      const folder = path.join(captures, name)
      const testFile = path.join(directory, name)
      folders.push({
        testFile,
        testFileExists: existsSync(testFile),
        files: entryNames(folder, 'file').map((file) => path.join(folder, file)),
      })
    }
  }
  return folders
}

/** The names of the folders (or files) directly in `folder`, sorted; none when it is missing or unreadable. */
function entryNames(folder: string, kind: 'directory' | 'file'): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => (kind === 'directory' ? entry.isDirectory() : entry.isFile()))
      .map((entry) => entry.name)
      .sort()
  } catch {
    // Missing or unreadable: nothing in it can be shown obsolete.
    return []
  }
}

export interface RemovalResult {
  readonly removed: readonly string[]
  /** Files that could not be removed, with the operating system's error code. */
  readonly failed: readonly { readonly file: string; readonly code: string }[]
}

/**
 * Removes obsolete authority files with their pending captures (which could only bring them back), then each
 * `__captures__/<test file>/` folder and `__captures__` folder left empty. Only files directly inside a
 * `__captures__/<name>/` folder are removed; anything else is refused.
 */
export function removeAuthorityFiles(files: readonly string[]): RemovalResult {
  const removed: string[] = []
  const failed: { file: string; code: string }[] = []
  for (const file of files) {
    if (path.basename(path.dirname(path.dirname(file))) !== AUTHORITY_DIRECTORY) {
      failed.push({ file, code: 'not in a __captures__ folder' })
      continue
    }
    try {
      rmSync(file)
      removed.push(file)
      for (const pending of removePendingCaptures(file).failed) {
        failed.push(pending)
      }
    } catch (error) {
      failed.push({ file, code: (error as NodeJS.ErrnoException).code ?? String(error) })
    }
  }
  for (const folder of new Set(removed.map((file) => path.dirname(file)))) {
    if (removeIfEmpty(folder)) {
      removeIfEmpty(path.dirname(folder))
    }
  }
  return { removed, failed }
}

function removeIfEmpty(folder: string): boolean {
  try {
    if (readdirSync(folder).length > 0) {
      return false
    }
    rmdirSync(folder)
    return true
  } catch {
    // Another process wrote into it, or it is gone already: leaving a folder in place is harmless.
    return false
  }
}
