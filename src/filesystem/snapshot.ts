import { readlinkSync, type BigIntStats } from 'node:fs'
import type { FileEntry, FilesystemAccounting } from '../evidence/schema.js'
import { escapeName } from './aliases.js'
import { enumerateRoots, type Enumerated, type RootState } from './enumerate.js'
import { CONFIRMATION_DELAY_MS, confirmHash, hashFile, type HashedFile } from './hash.js'
import { Pacer } from './pacer.js'
import { SnapshotAccounting, type SnapshotLimits } from './snapshot-accounting.js'

export type { RootState } from './enumerate.js'
export type { SnapshotLimits } from './snapshot-accounting.js'

export interface FilesystemSnapshot {
  readonly entries: Record<string, FileEntry>
  readonly rootStates: RootState[]
  readonly accounting: FilesystemAccounting
}

/** What the passes after enumeration (hashing, then confirming) share. */
interface HashingPass {
  readonly accounting: SnapshotAccounting
  readonly pacer: Pacer
  readonly signal: AbortSignal | undefined
}

/** A file hashed while it was recently modified: read once more before its digest is trusted. */
interface PendingConfirmation {
  readonly key: string
  readonly path: Buffer
  readonly first: HashedFile
  /** The hashing budget left before this file drew on it, as its omission reports it if the digest is taken back. */
  readonly remainingBefore: number
}

const mode = (stats: BigIntStats): string => `0${(Number(stats.mode) & 0o7777).toString(8).padStart(3, '0')}`

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
  const accounting = new SnapshotAccounting(limits)
  const pass: HashingPass = { accounting, pacer: new Pacer(), signal }
  const enumeration = await enumerateRoots(roots, limits, accounting, pass.pacer)
  const inKeyOrder = [...enumeration.entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  const { entries, toConfirm } = await recordEntries(pass, inKeyOrder, limits.fileBytes)
  await confirmRecentHashes(pass, entries, toConfirm)
  accounting.entriesRetained(enumeration.entries.length)
  return { entries, rootStates: enumeration.rootStates, accounting: accounting.record }
}

/** Records every entry in key order; regular files are hashed whole while the budget lasts. */
async function recordEntries(
  pass: HashingPass,
  enumerated: readonly Enumerated[],
  budgetBytes: number,
): Promise<{ entries: Record<string, FileEntry>; toConfirm: PendingConfirmation[] }> {
  const entries: Record<string, FileEntry> = {}
  const toConfirm: PendingConfirmation[] = []
  let remaining = budgetBytes
  for (const { key, path, stats, type } of enumerated) {
    await pass.pacer.pause()
    switch (type) {
      case 'file': {
        const size = Number(stats.size)
        const result = await hashFile(path, stats, remaining, pass.signal)
        if (result.status === 'hashed') {
          // Only complete digests draw on the budget: it bounds the bytes behind the digests REA reports.
          pass.accounting.hashed(result.bytes)
          remaining -= result.bytes
          entries[key] = { type, size, sha256: result.sha256, mode: mode(stats) }
          if (result.needsConfirmation === true) {
            toConfirm.push({ key, path, first: result, remainingBefore: remaining + result.bytes })
          }
        } else {
          entries[key] = { type, size, sha256: null, mode: mode(stats) }
          pass.accounting.hashOmitted({
            path: key,
            size,
            remaining_budget: remaining,
            reason: result.reason,
            system_code: result.system_code,
          })
        }
        break
      }
      case 'symlink':
        entries[key] = { type, target: readTarget(pass, key, path) }
        break
      case 'directory':
      case 'fifo':
      case 'socket':
      case 'character_device':
      case 'block_device':
        entries[key] = { type, mode: mode(stats) }
        break
    }
  }
  return { entries, toConfirm }
}

function readTarget(pass: HashingPass, key: string, path: Buffer): string {
  try {
    return escapeName(readlinkSync(path, { encoding: 'buffer' }))
  } catch (error) {
    // The link's target is unknown; the link itself was seen.
    pass.accounting.failed(key, error)
    return ''
  }
}

/**
 * Recently modified files are read once more, after one short wait for the whole checkpoint; a file that
 * changed meanwhile loses its digest, and its bytes no longer count as hashed.
 */
async function confirmRecentHashes(
  pass: HashingPass,
  entries: Record<string, FileEntry>,
  toConfirm: readonly PendingConfirmation[],
): Promise<void> {
  if (toConfirm.length === 0) {
    return
  }
  await new Promise((resolve) => setTimeout(resolve, CONFIRMATION_DELAY_MS))
  for (const { key, path, first, remainingBefore } of toConfirm) {
    await pass.pacer.pause()
    const confirmed = await confirmHash(path, first, pass.signal)
    const entry = entries[key]
    if (confirmed.status === 'omitted' && entry?.type === 'file') {
      entries[key] = { ...entry, sha256: null }
      pass.accounting.hashOmitted(
        {
          path: key,
          size: entry.size,
          remaining_budget: remainingBefore,
          reason: confirmed.reason,
          system_code: confirmed.system_code,
        },
        first.bytes,
      )
    }
  }
  pass.accounting.sortHashOmissions()
}
