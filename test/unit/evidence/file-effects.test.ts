import { describe, expect, test } from 'vitest'
import type { FileEntry } from '../../../src/evidence/schema.js'
import { classifyEffects } from '../../../src/evidence/file-effects.js'
import type { FilesystemSnapshot } from '../../../src/filesystem/snapshot.js'

const file = (sha256: string | null, size = 3, mode = '0644'): FileEntry => ({
  type: 'file',
  size,
  sha256,
  mode,
})
const A = 'a'.repeat(64)
const B = 'b'.repeat(64)

function snapshot(
  entries: Record<string, FileEntry>,
  exhausted: Record<string, boolean> = { root_0: true },
): FilesystemSnapshot {
  return {
    entries,
    rootStates: [],
    accounting: {
      file_count_limit: 100,
      depth_limit: 10,
      entries_retained: Object.keys(entries).length,
      count_limit_reached: false,
      depth_limited: [],
      incomplete_directories: [],
      enumeration_failures: [],
      file_bytes_budget: 100,
      bytes_hashed: 0,
      hash_omissions: [],
      roots: Object.entries(exhausted).map(([alias, done]) => ({ alias, exhausted: done })),
    },
  }
}

const statusOf = (before: FilesystemSnapshot, after: FilesystemSnapshot) =>
  Object.fromEntries(classifyEffects(before, after).map((effect) => [effect.path, effect.status]))

describe('classifyEffects', () => {
  test('classifies unchanged, modified, created and deleted entries of exhausted roots', () => {
    const before = snapshot({ 'root_0:same': file(A), 'root_0:edit': file(A), 'root_0:gone': file(A) })
    const after = snapshot({ 'root_0:same': file(A), 'root_0:edit': file(B), 'root_0:new': file(B) })
    expect(statusOf(before, after)).toEqual({
      'root_0:edit': 'modified',
      'root_0:gone': 'deleted',
      'root_0:new': 'created',
      'root_0:same': 'unchanged',
    })
  })

  test('names what changed: type, size, digest, permission bits, link target', () => {
    const effects = classifyEffects(
      snapshot({
        'root_0:size': file(A, 3),
        'root_0:mode': file(A, 3, '0644'),
        'root_0:kind': file(A),
        'root_0:link': { type: 'symlink', target: 'x' },
      }),
      snapshot({
        'root_0:size': file(B, 4),
        'root_0:mode': file(A, 3, '0755'),
        'root_0:kind': { type: 'directory', mode: '0755' },
        'root_0:link': { type: 'symlink', target: 'y' },
      }),
    )
    expect(
      Object.fromEntries(effects.map((effect) => [effect.path, 'changes' in effect ? effect.changes : []])),
    ).toEqual({
      'root_0:kind': ['type'],
      'root_0:link': ['target'],
      'root_0:mode': ['mode'],
      'root_0:size': ['size', 'sha256'],
    })
  })

  test('proves nothing about contents from a missing digest, but still sees a size change', () => {
    const effects = classifyEffects(
      snapshot({ 'root_0:skipped': file(null), 'root_0:grew': file(null, 3) }),
      snapshot({ 'root_0:skipped': file(A), 'root_0:grew': file(null, 9) }),
    )
    expect(effects).toContainEqual(
      expect.objectContaining({ path: 'root_0:skipped', status: 'unknown', reason: 'digest_unavailable' }),
    )
    expect(effects).toContainEqual(
      expect.objectContaining({ path: 'root_0:grew', status: 'modified', changes: ['size'] }),
    )
  })

  test('trusts absence only where the root was enumerated completely on that side', () => {
    const before = snapshot({ 'root_0:old': file(A), 'root_1:old': file(A) }, { root_0: true, root_1: true })
    const after = snapshot({ 'root_0:new': file(A), 'root_1:new': file(A) }, { root_0: false, root_1: true })
    expect(classifyEffects(before, after)).toEqual([
      { path: 'root_0:new', status: 'created', before: null, after: file(A) },
      {
        path: 'root_0:old',
        status: 'unknown',
        before: file(A),
        after: null,
        reason: 'after_enumeration_incomplete',
      },
      { path: 'root_1:new', status: 'created', before: null, after: file(A) },
      { path: 'root_1:old', status: 'deleted', before: file(A), after: null },
    ])
  })

  test('leaves entries below a symbolic link unknown on the side where the link stands', () => {
    const before = snapshot({ 'root_0:dir': { type: 'directory', mode: '0755' }, 'root_0:dir/a': file(A) })
    const after = snapshot({ 'root_0:dir': { type: 'symlink', target: '/elsewhere' } })
    expect(statusOf(before, after)).toEqual({ 'root_0:dir': 'modified', 'root_0:dir/a': 'unknown' })
  })
})
