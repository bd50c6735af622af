import { createHash } from 'node:crypto'
import { closeSync, constants as fsConstants, fstatSync, openSync, readSync, type BigIntStats } from 'node:fs'

/** Files are read in chunks of this size for hashing; their contents are never kept. */
export const HASH_CHUNK_BYTES = 64 * 1024
/** Synchronous reads run in batches of at most this many bytes, then yield so timers and cancellation run. */
const HASH_BATCH_BYTES = 8 * 1024 * 1024

export type HashOmissionReason =
  'file_bytes_budget' | 'file_changed_or_short_read' | 'file_unavailable' | 'cancelled'

export type HashResult =
  | {
      readonly status: 'hashed'
      readonly sha256: string
      readonly bytes: number
      /** The state the digest was read in, kept when a confirmation read is due. */
      readonly state?: FileState
    }
  | {
      readonly status: 'omitted'
      readonly reason: HashOmissionReason
      /** The OS error code when an OS file operation failed, else null. */
      readonly system_code: string | null
      /** Bytes read before giving up (they count as hashing work, not as a digest). */
      readonly bytes: number
    }

/** A function, not an inline check: the signal can be aborted while this module awaits. */
const isAborted = (signal: AbortSignal | undefined): boolean => signal?.aborted === true

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

function omitted(reason: HashOmissionReason, systemCode: string | null, bytes = 0): HashResult {
  return { status: 'omitted', reason, system_code: systemCode, bytes }
}

function codeOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'UNKNOWN'
}

/** The same file in the same state: identity (device, inode) and the attributes a write changes, to the ns. */
function sameState(a: FileState, b: FileState): boolean {
  return (
    a.dev === b.dev &&
    a.ino === b.ino &&
    a.size === b.size &&
    a.mtimeNs === b.mtimeNs &&
    a.ctimeNs === b.ctimeNs
  )
}

/**
 * A file modified this recently may still be inside a write that started before REA looked: Linux stamps the
 * modification time when a write starts, so a write in flight leaves the same stats before and after a read
 * it tore. Such a file is confirmed by a second read at least {@link CONFIRMATION_DELAY_MS} later.
 */
export const RECENT_WRITE_WINDOW_MS = 2000
/** Time for a descheduled writer to move on between the read and its confirmation. */
export const CONFIRMATION_DELAY_MS = 10

export type HashedFile = Extract<HashResult, { status: 'hashed' }>

interface FileState {
  readonly dev: bigint
  readonly ino: bigint
  readonly size: bigint
  readonly mtimeNs: bigint
  readonly ctimeNs: bigint
}

/**
 * SHA-256 of the whole file in one read, or why there is none. A file larger than `remainingBudget` is
 * skipped, never hashed in part. The file is opened non-blocking and without following links (a FIFO or link
 * swapped in after enumeration is refused, not waited on), and its identity and state are checked before and
 * after the read: any change, or fewer bytes than its size, gives `file_changed_or_short_read`, never a
 * prefix digest. `listed` is the state seen when the file was enumerated: passing it makes the check cover the
 * whole span from enumeration to the end of the read (and saves a stat per file); without it the opened file
 * is looked at first. `needsConfirmation` marks a recently modified file: see {@link confirmHash}.
 */
export async function hashFile(
  path: string | Buffer,
  listed: BigIntStats | null,
  remainingBudget: number,
  signal?: AbortSignal,
): Promise<HashResult & { readonly needsConfirmation?: boolean }> {
  if (isAborted(signal)) {
    return omitted('cancelled', null)
  }
  if (listed !== null && Number(listed.size) > remainingBudget) {
    return omitted('file_bytes_budget', null)
  }
  const opened = openForHashing(path)
  if (typeof opened !== 'number') {
    return opened
  }
  try {
    const before = listed ?? fstatSync(opened, { bigint: true })
    if (!before.isFile()) {
      return omitted('file_changed_or_short_read', null)
    }
    const size = Number(before.size)
    if (size > remainingBudget) {
      return omitted('file_bytes_budget', null)
    }
    const result = await readWhole(opened, size, signal)
    if (result.status === 'omitted') {
      return result
    }
    if (!sameState(stateOf(before), stateOf(fstatSync(opened, { bigint: true })))) {
      return omitted('file_changed_or_short_read', null, result.bytes)
    }
    const needsConfirmation = Date.now() - Number(before.mtimeMs) < RECENT_WRITE_WINDOW_MS
    return needsConfirmation ? { ...result, state: stateOf(before), needsConfirmation } : result
  } finally {
    closeSync(opened)
  }
}

/**
 * Reads a recently modified file again and keeps its digest only if nothing changed: the same file, the same
 * state, the same bytes. A write torn by the first read would have to be paused, mid-write, for the whole
 * interval between the two reads to go unnoticed.
 */
export async function confirmHash(
  path: string | Buffer,
  first: HashedFile,
  signal?: AbortSignal,
): Promise<HashResult> {
  if (first.state === undefined) {
    return first
  }
  const opened = openForHashing(path)
  if (typeof opened !== 'number') {
    return opened.status === 'omitted' ? { ...opened, bytes: first.bytes } : opened
  }
  try {
    const before = stateOf(fstatSync(opened, { bigint: true }))
    if (!sameState(first.state, before)) {
      return omitted('file_changed_or_short_read', null, first.bytes)
    }
    const again = await readWhole(opened, Number(before.size), signal)
    if (again.status === 'omitted') {
      return again
    }
    if (again.sha256 !== first.sha256 || !sameState(before, stateOf(fstatSync(opened, { bigint: true })))) {
      return omitted('file_changed_or_short_read', null, first.bytes)
    }
    return { status: 'hashed', sha256: first.sha256, bytes: first.bytes }
  } finally {
    closeSync(opened)
  }
}

/** {@link hashFile} followed, for a recently modified file, by its confirmation after the delay. */
export async function hashFileConsistently(
  path: string | Buffer,
  listed: BigIntStats | null,
  remainingBudget: number,
  signal?: AbortSignal,
): Promise<HashResult> {
  const first = await hashFile(path, listed, remainingBudget, signal)
  if (first.status !== 'hashed' || first.needsConfirmation !== true) {
    return first
  }
  await new Promise((resolve) => setTimeout(resolve, CONFIRMATION_DELAY_MS))
  return confirmHash(path, first, signal)
}

function openForHashing(path: string | Buffer): number | HashResult {
  try {
    return openSync(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | fsConstants.O_NOFOLLOW)
  } catch (error) {
    const code = codeOf(error)
    // ELOOP: the path became a symbolic link; ENOENT: it went away. Both are changes since enumeration.
    return code === 'ELOOP' || code === 'ENOENT'
      ? omitted('file_changed_or_short_read', code)
      : omitted('file_unavailable', code)
  }
}

function stateOf(stats: BigIntStats): FileState {
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeNs: stats.mtimeNs, ctimeNs: stats.ctimeNs }
}

/**
 * One read buffer for every hash: each chunk is read and handed to the hash synchronously, with no await in
 * between, so hashes interleaved at yields never see each other's bytes. A buffer per file made allocation and
 * garbage collection the main cost of hashing many small files.
 */
const chunk = Buffer.allocUnsafe(HASH_CHUNK_BYTES)

/** Reads the file from the start in 64 KiB chunks and hashes it; exactly `size` bytes or a change is reported. */
async function readWhole(fd: number, size: number, signal: AbortSignal | undefined): Promise<HashResult> {
  const hash = createHash('sha256')
  let total = 0
  let batch = 0
  for (;;) {
    let read: number
    try {
      read = readSync(fd, chunk, 0, HASH_CHUNK_BYTES, total)
    } catch (error) {
      return omitted('file_unavailable', codeOf(error), total)
    }
    if (read === 0) {
      break
    }
    total += read
    if (total > size) {
      return omitted('file_changed_or_short_read', null, total)
    }
    hash.update(read === HASH_CHUNK_BYTES ? chunk : chunk.subarray(0, read))
    if (read < HASH_CHUNK_BYTES && total === size) {
      // A short read of a regular file is its end. The caller's state check after the read catches a file
      // that grew since, so the extra read that would return 0 is skipped (half the reads for small files).
      break
    }
    batch += read
    if (batch >= HASH_BATCH_BYTES) {
      batch = 0
      await yieldToEventLoop()
      if (isAborted(signal)) {
        return omitted('cancelled', null, total)
      }
    }
  }
  return total === size
    ? { status: 'hashed', sha256: hash.digest('hex'), bytes: total }
    : omitted('file_changed_or_short_read', null, total)
}
