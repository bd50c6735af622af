import { existsSync, realpathSync, statSync } from 'node:fs'
import path from 'node:path'
import { readPendingName } from '../authority/pending-path.js'
import { ReaError } from '../errors.js'
import { pathInside, toPosix } from '../internal/path-inside.js'
import { findPendingCaptures } from './find-pending.js'

/** The pending captures some filters select, and what the search met on the way. */
export interface PendingSelection {
  /** Absolute paths, sorted. */
  readonly pending: readonly string[]
  /** Filters that selected nothing. */
  readonly unmatched: readonly string[]
  /** Folders the search could not read, with the operating system's code. */
  readonly unreadable: readonly { readonly folder: string; readonly code: string }[]
}

type Filter =
  | { readonly kind: 'folder'; readonly text: string; readonly path: string }
  | { readonly kind: 'file'; readonly text: string; readonly path: string }
  | { readonly kind: 'name'; readonly text: string }

/**
 * The pending captures `rea review` works on. Each filter selects some, and a capture is taken when any filter
 * selects it (none: every one under `cwd`):
 * - a filter naming an existing folder selects every pending capture under it (searched too, wherever it is);
 * - one naming an existing file selects that pending capture, the pending capture of that authority, or those of
 *   that test file;
 * - anything else selects the captures whose test name contains it (`>` and `›` alike), or whose pending file,
 *   authority or test file ends with it, a whole path component at a time (`todo.test.mjs`).
 * With `confine` (the MCP server's project folder), a path outside it is refused, links resolved.
 */
export function selectPendingCaptures(
  filters: readonly string[],
  cwd: string,
  confine?: string,
): PendingSelection {
  const parsed = filters.map((text) => parseFilter(text, cwd))
  if (confine !== undefined) {
    refuseOutside(parsed, confine)
  }
  // A file's pending captures are near it: its own folder, or its test's `__captures__` folder below it.
  const paths = parsed.flatMap((filter) =>
    filter.kind === 'name' ? [] : [filter.kind === 'file' ? path.dirname(filter.path) : filter.path],
  )
  const roots = paths.length === parsed.length && paths.length > 0 ? paths : [cwd, ...paths]
  const found = findPendingCaptures(roots)
  const matched = new Set<Filter>()
  const pending = found.pending.filter((file) => {
    if (parsed.length === 0) {
      return true
    }
    const selecting = parsed.filter((filter) => selects(filter, file))
    selecting.forEach((filter) => matched.add(filter))
    return selecting.length > 0
  })
  return {
    pending,
    unmatched: parsed.filter((filter) => !matched.has(filter)).map((filter) => filter.text),
    unreadable: found.unreadable,
  }
}

function parseFilter(text: string, cwd: string): Filter {
  const resolved = path.resolve(cwd, text)
  if (text !== '' && existsSync(resolved)) {
    return statSync(resolved).isDirectory()
      ? { kind: 'folder', text, path: resolved }
      : { kind: 'file', text, path: resolved }
  }
  return { kind: 'name', text }
}

function selects(filter: Filter, pending: string): boolean {
  const name = readPendingName(pending, existsSync)
  switch (filter.kind) {
    case 'folder':
      return pathInside(filter.path, pending) !== null
    case 'file':
      return pending === filter.path || name?.authority === filter.path || name?.test?.file === filter.path
    case 'name': {
      const wanted = filter.text.replaceAll(' > ', ' › ')
      const files = [pending, name?.authority, name?.test?.file].filter((file) => file !== undefined)
      return (
        (name?.test?.name.includes(wanted) ?? false) || files.some((file) => endsWithPath(file, filter.text))
      )
    }
  }
}

/** Whether `file` ends with `suffix`, whole path components only (`a/b.txt` ends with `b.txt`, not with `.txt`). */
function endsWithPath(file: string, suffix: string): boolean {
  const posix = toPosix(file)
  const wanted = suffix.replaceAll('\\', '/').replace(/^\.\//, '')
  return wanted !== '' && (posix === wanted || posix.endsWith(`/${wanted}`))
}

function refuseOutside(filters: readonly Filter[], confine: string): void {
  const root = realpathSync(confine)
  for (const filter of filters) {
    if (filter.kind !== 'name' && pathInside(root, realpathSync(filter.path)) === null) {
      throw new ReaError(
        'INVALID_ARGUMENTS',
        `${filter.text} lies outside the server's project folder ${root}: pending captures are reviewed only inside it.`,
        {
          hint: 'Give a path inside the project folder, or start the server there (rea mcp --root <folder>).',
        },
      )
    }
  }
}
