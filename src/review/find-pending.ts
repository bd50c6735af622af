import { lstatSync, readdirSync, type Dirent } from 'node:fs'
import path from 'node:path'
import { isPendingName } from '../authority/pending-path.js'

/** Folders a search never enters: installed packages, and hidden folders (`.git`, caches, tool state). */
const SKIPPED_FOLDER = (name: string): boolean => name === 'node_modules' || name.startsWith('.')

/**
 * Every pending capture under the given paths, sorted, each once: a folder is searched all the way down (but not
 * into `node_modules` or hidden folders, unless the path given is one, nor through symbolic links, which could
 * lead out of the project or round in a loop); a file is taken when it is a pending capture. Folders that cannot be
 * read are listed in `unreadable`, never a reason to stop.
 */
export function findPendingCaptures(paths: readonly string[]): {
  readonly pending: readonly string[]
  readonly unreadable: readonly { readonly folder: string; readonly code: string }[]
} {
  const found = new Set<string>()
  const unreadable: { folder: string; code: string }[] = []
  const visit = (folder: string): void => {
    let entries: Dirent[]
    try {
      entries = readdirSync(folder, { withFileTypes: true })
    } catch (error) {
      unreadable.push({ folder, code: (error as NodeJS.ErrnoException).code ?? String(error) })
      return
    }
    for (const entry of entries) {
      const child = path.join(folder, entry.name)
      if (entry.isDirectory() && !SKIPPED_FOLDER(entry.name)) {
        visit(child)
      } else if (entry.isFile() && isPendingName(entry.name)) {
        found.add(child)
      }
    }
  }
  for (const given of paths) {
    const absolute = path.resolve(given)
    let isFolder: boolean
    try {
      isFolder = lstatSync(absolute).isDirectory()
    } catch (error) {
      unreadable.push({ folder: absolute, code: (error as NodeJS.ErrnoException).code ?? String(error) })
      continue
    }
    if (isFolder) {
      visit(absolute)
    } else if (isPendingName(path.basename(absolute))) {
      found.add(absolute)
    }
  }
  return { pending: [...found].sort(), unreadable }
}
