import { lstatSync, opendirSync, type BigIntStats, type Dir, type Dirent } from 'node:fs'
import type { FileEntry } from '../evidence/schema.js'
import { entryKey, escapeName, rootAlias, rootKey } from './aliases.js'
import type { Pacer } from './pacer.js'
import { codeOf, type SnapshotAccounting, type SnapshotLimits } from './snapshot-accounting.js'

export type RootState = 'directory' | 'file' | 'symlink' | 'other' | 'missing' | 'unreadable'

/** An entry found by the walk: its key in the Evidence, its path as bytes, and what `lstat` said of it. */
export interface Enumerated {
  readonly key: string
  readonly path: Buffer
  readonly stats: BigIntStats
  readonly type: FileEntry['type']
}

/** What enumeration leaves for hashing: every entry found, and each root's state. */
export interface Enumeration {
  readonly entries: readonly Enumerated[]
  readonly rootStates: RootState[]
}

const SEPARATOR = Buffer.from('/')

/** The walk of one checkpoint, across its roots: what it found and the room left under `limits.file_count`. */
interface CheckpointWalk {
  readonly limits: SnapshotLimits
  readonly accounting: SnapshotAccounting
  readonly pacer: Pacer
  readonly found: Enumerated[]
  capacity: number
}

/** The walk of one root: whether every entry under it was enumerated, so that absence there can be trusted. */
interface RootWalk {
  readonly checkpoint: CheckpointWalk
  readonly index: number
  exhausted: boolean
}

/** A directory's names as read, at most as many as there is room for; `more` when some were left unread. */
interface Listing {
  readonly names: readonly Dirent<Buffer>[]
  readonly more: boolean
}

function entryTypeOf(stats: BigIntStats): FileEntry['type'] {
  if (stats.isFile()) {
    return 'file'
  }
  if (stats.isDirectory()) {
    return 'directory'
  }
  if (stats.isSymbolicLink()) {
    return 'symlink'
  }
  if (stats.isFIFO()) {
    return 'fifo'
  }
  if (stats.isSocket()) {
    return 'socket'
  }
  return stats.isCharacterDevice() ? 'character_device' : 'block_device'
}

/**
 * Enumerates every root in order within `fileCount` entries (shared by all roots) and `depth` levels below
 * each. Symbolic links are recorded, never followed. Cancellation does not stop it: the limits bound it, and a
 * cancelled run still records which entries exist.
 */
export async function enumerateRoots(
  roots: readonly string[],
  limits: SnapshotLimits,
  accounting: SnapshotAccounting,
  pacer: Pacer,
): Promise<Enumeration> {
  const checkpoint: CheckpointWalk = { limits, accounting, pacer, found: [], capacity: limits.fileCount }
  const rootStates: RootState[] = []
  for (const [index, root] of roots.entries()) {
    rootStates.push(await enumerateRoot(checkpoint, index, root))
  }
  return { entries: checkpoint.found, rootStates }
}

async function enumerateRoot(checkpoint: CheckpointWalk, index: number, root: string): Promise<RootState> {
  const { accounting } = checkpoint
  const walk: RootWalk = { checkpoint, index, exhausted: true }
  const alias = rootAlias(index)
  const rootPath = Buffer.from(root)
  let stats: BigIntStats
  try {
    stats = lstatSync(rootPath, { bigint: true })
  } catch (error) {
    const code = codeOf(error)
    const missing = code === 'ENOENT' || code === 'ENOTDIR'
    if (!missing) {
      fail(walk, rootKey(index), error)
    }
    accounting.rootWalked(alias, walk.exhausted)
    return missing ? 'missing' : 'unreadable'
  }
  const type = entryTypeOf(stats)
  const state = type === 'directory' || type === 'file' || type === 'symlink' ? type : 'other'
  if (checkpoint.capacity === 0) {
    accounting.countLimitReached()
    accounting.rootWalked(alias, false)
    return state
  }
  checkpoint.capacity--
  checkpoint.found.push({ key: rootKey(index), path: rootPath, stats, type })
  if (stats.isDirectory()) {
    await walkDirectory(walk, rootPath, [], 0)
  }
  accounting.rootWalked(alias, walk.exhausted)
  return state
}

/** A path under the root could not be enumerated: the root's absences can no longer be trusted. */
function fail(walk: RootWalk, key: string, error: unknown): void {
  walk.checkpoint.accounting.failed(key, error)
  walk.exhausted = false
}

/**
 * Depth-first in sorted order, so the same tree is always walked the same way. The walk uses synchronous
 * calls (a thread-pool round trip per entry made many small files several times slower) and yields to the
 * event loop between slices, so timers, progress and cancellation still run.
 */
async function walkDirectory(
  walk: RootWalk,
  directory: Buffer,
  segments: string[],
  depth: number,
): Promise<void> {
  const { checkpoint, index } = walk
  const { limits, accounting } = checkpoint
  const directoryKey = segments.length === 0 ? rootKey(index) : entryKey(index, segments)
  await checkpoint.pacer.pause()
  const listing = listDirectory(
    walk,
    directory,
    directoryKey,
    depth >= limits.depth ? 0 : checkpoint.capacity,
  )
  if (listing === undefined) {
    return
  }
  if (listing.more) {
    walk.exhausted = false
    if (depth >= limits.depth) {
      accounting.depthLimited(directoryKey)
    } else {
      accounting.countLimitReached(directoryKey)
    }
  }
  checkpoint.capacity -= listing.names.length
  const children = listing.names
    .map((entry) => ({ raw: entry.name, name: escapeName(entry.name) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const child of children) {
    const childPath = Buffer.concat([directory, SEPARATOR, child.raw])
    const childSegments = [...segments, child.name]
    const childKey = entryKey(index, childSegments)
    let childStats: BigIntStats
    try {
      childStats = lstatSync(childPath, { bigint: true })
    } catch (error) {
      // Gone between the listing and the look: it was there at the listing, but its state is unknown.
      fail(walk, childKey, error)
      continue
    }
    checkpoint.found.push({
      key: childKey,
      path: childPath,
      stats: childStats,
      type: entryTypeOf(childStats),
    })
    if (childStats.isDirectory()) {
      await walkDirectory(walk, childPath, childSegments, depth + 1)
    }
  }
}

/**
 * Reads only as many names as there is room for (`limit`); one more read tells whether the directory is cut.
 * Undefined when the directory could not be opened; a read that fails keeps the names read before it.
 */
function listDirectory(
  walk: RootWalk,
  directory: Buffer,
  directoryKey: string,
  limit: number,
): Listing | undefined {
  let handle: Dir
  try {
    handle = opendirSync(directory, { encoding: 'buffer' } as unknown as Parameters<typeof opendirSync>[1])
  } catch (error) {
    fail(walk, directoryKey, error)
    return undefined
  }
  const names: Dirent<Buffer>[] = []
  let more = false
  try {
    for (;;) {
      const entry = handle.readSync() as Dirent<Buffer> | null
      if (entry === null) {
        break
      }
      if (names.length >= limit) {
        more = true
        break
      }
      names.push(entry)
    }
  } catch (error) {
    fail(walk, directoryKey, error)
  } finally {
    try {
      handle.closeSync()
    } catch {
      // Closing a directory handle cannot lose data; the listing already succeeded or was recorded.
    }
  }
  return { names, more }
}
