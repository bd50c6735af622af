import type { FilesystemAccounting } from '../evidence/schema.js'

export interface SnapshotLimits {
  /** Entries enumerated per checkpoint, across all roots. */
  readonly fileCount: number
  /** Directory levels below each root that are enumerated. */
  readonly depth: number
  /** Whole-file hashing budget per checkpoint, across all roots. */
  readonly fileBytes: number
}

type HashOmission = FilesystemAccounting['hash_omissions'][number]

/** The system error code a failed call carries, or `UNKNOWN`. */
export function codeOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'UNKNOWN'
}

/**
 * What one checkpoint left out and why, filled in by its phases in turn: enumeration records the cuts, the
 * failures and which roots it walked completely; hashing records the bytes behind the digests and each
 * omission. `record` is the accounting exactly as the Evidence holds it.
 */
export class SnapshotAccounting {
  readonly record: FilesystemAccounting

  constructor(limits: SnapshotLimits) {
    this.record = {
      file_count_limit: limits.fileCount,
      depth_limit: limits.depth,
      entries_retained: 0,
      count_limit_reached: false,
      depth_limited: [],
      incomplete_directories: [],
      enumeration_failures: [],
      file_bytes_budget: limits.fileBytes,
      bytes_hashed: 0,
      hash_omissions: [],
      roots: [],
    }
  }

  /** A path could not be listed, looked at or read as a link. */
  failed(key: string, error: unknown): void {
    this.record.enumeration_failures.push({ path: key, system_code: codeOf(error) })
  }

  /** `limits.file_count` left out entries: a whole root, or the rest of `directoryKey`. */
  countLimitReached(directoryKey?: string): void {
    this.record.count_limit_reached = true
    if (directoryKey !== undefined) {
      this.record.incomplete_directories.push(directoryKey)
    }
  }

  /** The contents of `directoryKey` lie below `limits.filesystem_depth`. */
  depthLimited(directoryKey: string): void {
    this.record.depth_limited.push(directoryKey)
  }

  /** A root is done: `exhausted` when it was enumerated completely, so absence under it can be trusted. */
  rootWalked(alias: string, exhausted: boolean): void {
    this.record.roots.push({ alias, exhausted })
  }

  hashed(bytes: number): void {
    this.record.bytes_hashed += bytes
  }

  /** A file's digest was left out; `unhashedBytes` are those of a digest taken back after it changed. */
  hashOmitted(omission: HashOmission, unhashedBytes = 0): void {
    this.record.bytes_hashed -= unhashedBytes
    this.record.hash_omissions.push(omission)
  }

  /** Omissions taken back in a later pass join the earlier ones in path order. */
  sortHashOmissions(): void {
    this.record.hash_omissions.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  }

  entriesRetained(count: number): void {
    this.record.entries_retained = count
  }
}
