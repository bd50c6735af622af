import { lstatSync, opendirSync, readlinkSync, type BigIntStats, type Dir, type Dirent } from 'node:fs'
import type { FileEntry, FilesystemAccounting } from '../evidence/schema.js'
import { entryKey, escapeName, rootAlias, rootKey } from './aliases.js'
import { CONFIRMATION_DELAY_MS, confirmHash, hashFile, type HashedFile } from './hash.js'

export interface SnapshotLimits {
  /** Entries enumerated per checkpoint, across all roots. */
  readonly fileCount: number
  /** Directory levels below each root that are enumerated. */
  readonly depth: number
  /** Whole-file hashing budget per checkpoint, across all roots. */
  readonly fileBytes: number
}

export type RootState = 'directory' | 'file' | 'symlink' | 'other' | 'missing' | 'unreadable'

export interface FilesystemSnapshot {
  readonly entries: Record<string, FileEntry>
  readonly rootStates: RootState[]
  readonly accounting: FilesystemAccounting
}

interface Enumerated {
  readonly key: string
  readonly path: Buffer
  readonly stats: BigIntStats
}

/** Slices synchronous work: yields to the event loop once a slice has run for {@link SLICE_MS}. */
const SLICE_MS = 10
class Pacer {
  #sliceStarted = performance.now()

  async pause(): Promise<void> {
    if (performance.now() - this.#sliceStarted < SLICE_MS) {
      return
    }
    await new Promise((resolve) => setImmediate(resolve))
    this.#sliceStarted = performance.now()
  }
}

function codeOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'UNKNOWN'
}

const SEPARATOR = Buffer.from('/')
const mode = (stats: BigIntStats): string => `0${(Number(stats.mode) & 0o7777).toString(8).padStart(3, '0')}`

function entryTypeOf(stats: BigIntStats): Exclude<FileEntry['type'], 'symlink'> | 'symlink' {
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
 * One filesystem checkpoint: every selected root enumerated within `fileCount` entries and `depth` levels,
 * regular files hashed whole within the `fileBytes` budget (fresh for each checkpoint). Symbolic links are
 * recorded with their target and never followed; FIFOs, sockets and devices are recorded by type and never
 * opened. What a limit or failure left out is accounted per root, so absence is only trusted where a root
 * was enumerated completely. Cancellation stops hashing (the rest get `cancelled`) but not enumeration, which
 * the limits already bound: a cancelled run still records which entries exist.
 */
export async function takeSnapshot(
  roots: readonly string[],
  limits: SnapshotLimits,
  signal?: AbortSignal,
): Promise<FilesystemSnapshot> {
  const accounting = {
    file_count_limit: limits.fileCount,
    depth_limit: limits.depth,
    entries_retained: 0,
    count_limit_reached: false,
    depth_limited: [] as string[],
    incomplete_directories: [] as string[],
    enumeration_failures: [] as { path: string; system_code: string }[],
    file_bytes_budget: limits.fileBytes,
    bytes_hashed: 0,
    hash_omissions: [] as FilesystemAccounting['hash_omissions'],
    roots: [] as { alias: string; exhausted: boolean }[],
  }
  const enumerated: Enumerated[] = []
  const rootStates: RootState[] = []
  let capacity = limits.fileCount
  const pacer = new Pacer()

  for (const [index, root] of roots.entries()) {
    const alias = rootAlias(index)
    let exhausted = true
    const fail = (key: string, error: unknown): void => {
      accounting.enumeration_failures.push({ path: key, system_code: codeOf(error) })
      exhausted = false
    }
    const rootPath = Buffer.from(root)
    let stats: BigIntStats
    try {
      stats = lstatSync(rootPath, { bigint: true })
    } catch (error) {
      const code = codeOf(error)
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        rootStates.push('missing')
      } else {
        rootStates.push('unreadable')
        fail(rootKey(index), error)
      }
      accounting.roots.push({ alias, exhausted })
      continue
    }
    const type = entryTypeOf(stats)
    rootStates.push(type === 'directory' || type === 'file' || type === 'symlink' ? type : 'other')
    if (capacity === 0) {
      accounting.count_limit_reached = true
      accounting.roots.push({ alias, exhausted: false })
      continue
    }
    capacity--
    enumerated.push({ key: rootKey(index), path: rootPath, stats })

    // Depth-first in sorted order, so the same tree is always walked the same way. The walk uses synchronous
    // calls (a thread-pool round trip per entry made many small files several times slower) and yields to the
    // event loop between slices, so timers, progress and cancellation still run.
    const walk = async (directory: Buffer, segments: string[], depth: number): Promise<void> => {
      const directoryKey = segments.length === 0 ? rootKey(index) : entryKey(index, segments)
      await pacer.pause()
      let handle: Dir
      try {
        handle = opendirSync(directory, { encoding: 'buffer' } as unknown as Parameters<
          typeof opendirSync
        >[1])
      } catch (error) {
        fail(directoryKey, error)
        return
      }
      const names: Dirent<Buffer>[] = []
      let more = false
      try {
        // Read only as many names as there is room for; one more read tells whether the directory is cut.
        const limit = depth >= limits.depth ? 0 : capacity
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
        fail(directoryKey, error)
      } finally {
        try {
          handle.closeSync()
        } catch {
          // Closing a directory handle cannot lose data; the listing already succeeded or was recorded.
        }
      }
      if (more) {
        exhausted = false
        if (depth >= limits.depth) {
          accounting.depth_limited.push(directoryKey)
        } else {
          accounting.count_limit_reached = true
          accounting.incomplete_directories.push(directoryKey)
        }
      }
      capacity -= names.length
      const children = names
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
          fail(childKey, error)
          continue
        }
        enumerated.push({ key: childKey, path: childPath, stats: childStats })
        if (childStats.isDirectory()) {
          await walk(childPath, childSegments, depth + 1)
        }
      }
    }
    if (stats.isDirectory()) {
      await walk(rootPath, [], 0)
    }
    accounting.roots.push({ alias, exhausted })
  }

  const entries: Record<string, FileEntry> = {}
  const toConfirm: { key: string; path: Buffer; first: HashedFile; remainingBefore: number }[] = []
  let remaining = limits.fileBytes
  for (const { key, path, stats } of enumerated.sort((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
  )) {
    await pacer.pause()
    const type = entryTypeOf(stats)
    switch (type) {
      case 'file': {
        const size = Number(stats.size)
        const result = await hashFile(path, stats, remaining, signal)
        if (result.status === 'hashed') {
          // Only complete digests draw on the budget: it bounds the bytes behind the digests REA reports.
          accounting.bytes_hashed += result.bytes
          remaining -= result.bytes
          entries[key] = { type, size, sha256: result.sha256, mode: mode(stats) }
          if (result.needsConfirmation === true) {
            toConfirm.push({ key, path, first: result, remainingBefore: remaining + result.bytes })
          }
        } else {
          entries[key] = { type, size, sha256: null, mode: mode(stats) }
          accounting.hash_omissions.push({
            path: key,
            size,
            remaining_budget: remaining,
            reason: result.reason,
            system_code: result.system_code,
          })
        }
        break
      }
      case 'symlink': {
        let target = ''
        try {
          target = escapeName(readlinkSync(path, { encoding: 'buffer' }))
        } catch (error) {
          // The link's target is unknown; the link itself was seen.
          accounting.enumeration_failures.push({ path: key, system_code: codeOf(error) })
        }
        entries[key] = { type, target }
        break
      }
      case 'directory':
      case 'fifo':
      case 'socket':
      case 'character_device':
      case 'block_device':
        entries[key] = { type, mode: mode(stats) }
        break
    }
  }
  // Recently modified files are read once more, after one short wait for the whole checkpoint.
  if (toConfirm.length > 0) {
    await new Promise((resolve) => setTimeout(resolve, CONFIRMATION_DELAY_MS))
    for (const { key, path, first, remainingBefore } of toConfirm) {
      await pacer.pause()
      const confirmed = await confirmHash(path, first, signal)
      const entry = entries[key]
      if (confirmed.status === 'omitted' && entry?.type === 'file') {
        entries[key] = { ...entry, sha256: null }
        accounting.bytes_hashed -= first.bytes
        accounting.hash_omissions.push({
          path: key,
          size: entry.size,
          remaining_budget: remainingBefore,
          reason: confirmed.reason,
          system_code: confirmed.system_code,
        })
      }
    }
    accounting.hash_omissions.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  }
  accounting.entries_retained = enumerated.length
  return { entries, rootStates, accounting }
}
