import { existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { isReaError, type ReaError } from '../errors.js'
import { readEvidenceFileSync } from '../evidence/load.js'
import type { Evidence } from '../evidence/schema.js'
import { writeFileAtomicSync } from '../internal/write-file-atomic.js'
import { authorityFileText } from './authority-text.js'

/** What an authority file holds, read before anything is decided. */
export type AuthorityFile =
  | { readonly state: 'missing' }
  | { readonly state: 'unusable'; readonly error: ReaError }
  | { readonly state: 'present'; readonly evidence: Evidence }

/** The only place authority matching touches the disk: reading and writing authority files. */
export function readAuthorityFile(file: string): AuthorityFile {
  if (!existsSync(file)) {
    return { state: 'missing' }
  }
  try {
    return { state: 'present', evidence: readEvidenceFileSync(file) }
  } catch (error) {
    if (isReaError(error)) {
      return { state: 'unusable', error }
    }
    throw error
  }
}

/**
 * Writes an authority in the layout made for review (a readable review section, then the Evidence a few members
 * per line), whole or not at all (a test killed meanwhile leaves the old authority); a failure is returned with
 * the operating system's code, never thrown.
 */
export function writeAuthorityFile(file: string, evidence: Evidence): { readonly failure: string | null } {
  try {
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileAtomicSync(file, authorityFileText(evidence))
    return { failure: null }
  } catch (error) {
    return { failure: (error as NodeJS.ErrnoException).code ?? String(error) }
  }
}
