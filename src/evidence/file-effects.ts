import type { FileEffect, FileEntry } from './schema.js'

/** One filesystem checkpoint as far as effects are concerned: its entries and which roots were listed whole. */
export interface CheckpointEntries {
  readonly entries: Readonly<Record<string, FileEntry>>
  readonly accounting: { readonly roots: readonly { readonly alias: string; readonly exhausted: boolean }[] }
}

type Change = Extract<FileEffect, { status: 'modified' }>['changes'][number]

/** The root alias of a key such as `root_1:a/b.txt`. */
function aliasOf(key: string): string {
  return key.slice(0, key.indexOf(':'))
}

function exhaustedRoots(snapshot: CheckpointEntries): Set<string> {
  return new Set(snapshot.accounting.roots.filter((root) => root.exhausted).map((root) => root.alias))
}

/** Keys below a symbolic link on the other side: REA does not follow links, so their state there is unknown. */
function belowSymlink(key: string, entries: Readonly<Record<string, FileEntry>>): boolean {
  const alias = aliasOf(key)
  const segments = key.slice(key.indexOf(':') + 1).split('/')
  for (let length = 1; length < segments.length; length++) {
    if (entries[`${alias}:${segments.slice(0, length).join('/')}`]?.type === 'symlink') {
      return true
    }
  }
  return false
}

function changesBetween(before: FileEntry, after: FileEntry): Change[] | 'undecidable' {
  if (before.type !== after.type) {
    return ['type']
  }
  const changes: Change[] = []
  if (before.type === 'symlink' && after.type === 'symlink') {
    return before.target === after.target ? [] : ['target']
  }
  if ('mode' in before && 'mode' in after && before.mode !== after.mode) {
    changes.push('mode')
  }
  if (before.type === 'file' && after.type === 'file') {
    if (before.size !== after.size) {
      changes.push('size')
    }
    if (before.sha256 !== null && after.sha256 !== null) {
      if (before.sha256 !== after.sha256) {
        changes.push('sha256')
      }
    } else if (changes.length === 0) {
      // Same size and mode but a digest is missing: the contents may or may not have changed.
      return 'undecidable'
    }
  }
  return changes
}

/**
 * Classifies every entry seen at either checkpoint. An entry present on one side only proves creation or
 * deletion only when its root was enumerated completely on the side where it is missing; a missing digest
 * does not make absence unknown; a root's partial enumeration leaves other roots' effects as they are.
 * Modified means the type, size, digest, permission bits or link target changed. The capture classifies its
 * snapshots with it, and import recomputes it from `normalized_result` to check the recorded effects.
 */
export function classifyEffects(before: CheckpointEntries, after: CheckpointEntries): FileEffect[] {
  const exhaustedBefore = exhaustedRoots(before)
  const exhaustedAfter = exhaustedRoots(after)
  const keys = [...new Set([...Object.keys(before.entries), ...Object.keys(after.entries)])].sort()
  return keys.map((key): FileEffect => {
    const was = before.entries[key] ?? null
    const is = after.entries[key] ?? null
    if (was !== null && is !== null) {
      const changes = changesBetween(was, is)
      if (changes === 'undecidable') {
        return { path: key, status: 'unknown', before: was, after: is, reason: 'digest_unavailable' }
      }
      return changes.length === 0
        ? { path: key, status: 'unchanged', before: was, after: is }
        : { path: key, status: 'modified', before: was, after: is, changes }
    }
    if (was !== null) {
      if (belowSymlink(key, after.entries)) {
        return { path: key, status: 'unknown', before: was, after: null, reason: 'below_unfollowed_symlink' }
      }
      return exhaustedAfter.has(aliasOf(key))
        ? { path: key, status: 'deleted', before: was, after: null }
        : { path: key, status: 'unknown', before: was, after: null, reason: 'after_enumeration_incomplete' }
    }
    if (belowSymlink(key, before.entries)) {
      return { path: key, status: 'unknown', before: null, after: is, reason: 'below_unfollowed_symlink' }
    }
    return exhaustedBefore.has(aliasOf(key))
      ? { path: key, status: 'created', before: null, after: is }
      : { path: key, status: 'unknown', before: null, after: is, reason: 'before_enumeration_incomplete' }
  })
}
