import { createHash } from 'node:crypto'
import path from 'node:path'
import { AUTHORITY_DIRECTORY, AUTHORITY_EXTENSION } from './authority-path.js'

/**
 * How a pending capture is named: after its authority, so it sorts beside it, then a fingerprint of the authority
 * file it was compared with, so accepting can tell when the authority changed since.
 *
 * `greets the user 1-1f3a9c0e.capture.json` → `greets the user 1-1f3a9c0e.7c2e90aa.pending-capture.json`.
 * The name never ends in `.capture.json`, so nothing takes it for an authority (obsolete-file checks, a glob of
 * authorities); one `.gitignore` line, `*.pending-capture.json`, keeps every pending capture out of commits.
 */
export const PENDING_EXTENSION = '.pending-capture.json'

const FINGERPRINT_HEX = 8
const PENDING_NAME = /^(?<base>.+)\.(?<fingerprint>[0-9a-f]{8})\.pending-capture\.json$/su
const DEFAULT_BASE = /^(?<name>.*) (?<assertion>[1-9]\d{0,6})-[0-9a-f]{8}$/su

/** The first hex digits of the SHA-256 of an authority file's bytes: the version a pending capture was compared with. */
export function authorityFingerprint(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, FINGERPRINT_HEX)
}

/** The authority's name without `.capture.json` (the whole name for an authority named otherwise). */
function baseOf(authorityPath: string): string {
  const name = path.basename(authorityPath)
  return name.endsWith(AUTHORITY_EXTENSION) ? name.slice(0, -AUTHORITY_EXTENSION.length) : name
}

/** Where the pending capture of `authorityPath`, compared with the authority file whose fingerprint is given, goes. */
export function pendingPathFor(authorityPath: string, fingerprint: string): string {
  return path.join(path.dirname(authorityPath), `${baseOf(authorityPath)}.${fingerprint}${PENDING_EXTENSION}`)
}

/** Whether a file name is one a pending capture is written under. */
export function isPendingName(fileName: string): boolean {
  return PENDING_NAME.test(fileName)
}

/** Whether `fileName` (in the authority's folder) is a pending capture of that authority, of any fingerprint. */
export function isPendingOf(fileName: string, authorityPath: string): boolean {
  return PENDING_NAME.exec(fileName)?.groups?.['base'] === baseOf(authorityPath)
}

/** What a pending capture's name says: the authority it would replace and the fingerprint it was compared with. */
export interface PendingName {
  /**
   * The authority's path: `<base>.capture.json`, or, for an authority named without that ending, `<base>` itself,
   * when only that one exists (`exists` tells which paths are there).
   */
  readonly authority: string
  readonly fingerprint: string
  /** For a default authority (`__captures__/<test file>/<test name> <n>-<hash>`): the test file and name. */
  readonly test: { readonly file: string; readonly name: string; readonly assertion: number } | null
}

/** Reads a pending capture's path; null when the name is not a pending capture's. */
export function readPendingName(pendingPath: string, exists: (file: string) => boolean): PendingName | null {
  const groups = PENDING_NAME.exec(path.basename(pendingPath))?.groups
  const base = groups?.['base']
  const fingerprint = groups?.['fingerprint']
  if (base === undefined || fingerprint === undefined) {
    return null
  }
  const folder = path.dirname(pendingPath)
  const named = path.join(folder, `${base}${AUTHORITY_EXTENSION}`)
  const bare = path.join(folder, base)
  const authority = !exists(named) && exists(bare) ? bare : named
  return { authority, fingerprint, test: testOf(folder, base) }
}

/** The test a default authority belongs to, read from its folder and name (the name's readable part may be cut). */
function testOf(folder: string, base: string): PendingName['test'] {
  const groups = DEFAULT_BASE.exec(base)?.groups
  if (groups === undefined || path.basename(path.dirname(folder)) !== AUTHORITY_DIRECTORY) {
    return null
  }
  return {
    file: path.join(path.dirname(path.dirname(folder)), path.basename(folder)),
    name: groups['name'] ?? '',
    assertion: Number(groups['assertion']),
  }
}
