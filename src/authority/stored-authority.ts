import { serializeAuthority } from '../evidence/authority-document.js'
import type { Evidence } from '../evidence/schema.js'
import { withTokensForMachineValues } from '../evidence/tokens-for-values.js'
import { writeAuthorityText } from './authority-store.js'
import { machineValuesLeft, type MachineValueLeft } from './machine-values-left.js'

/** An authority as it is stored: its Evidence, the file's text, and the machine's values it still holds. */
export interface StoredAuthority {
  /** The Evidence the file holds: the capture with its placeholders' values as tokens, sealed again. */
  readonly evidence: Evidence
  /** The file: the review section, then the Evidence (serializeAuthority). */
  readonly text: string
  /** Values of this machine still in the file, with the placeholder that would cover each. */
  readonly machineValuesLeft: readonly MachineValueLeft[]
}

/**
 * The one way a capture becomes an authority, whoever asks (a first recording, `-u`, an accepted pending
 * capture): the values its placeholders stand for are stored as their tokens outside the comparison text
 * (`withTokensForMachineValues`), the document is laid out for review, and what of this machine it still holds
 * is found for a warning. Call it in the process that made the capture: that is where the values are known.
 * The capture itself is left as it is.
 *
 * @example
 * const stored = storedAuthority(capture)
 * writeFileSync(file, stored.text)
 */
export function storedAuthority(capture: Evidence): StoredAuthority {
  const evidence = withTokensForMachineValues(capture)
  return {
    evidence,
    text: serializeAuthority(evidence),
    machineValuesLeft: machineValuesLeft(evidence, capture),
  }
}

/** Stores `capture` as the authority `file` (see `storedAuthority`); a failure carries the system's code. */
export function writeAuthority(
  file: string,
  capture: Evidence,
): { readonly failure: string | null; readonly stored: StoredAuthority } {
  const stored = storedAuthority(capture)
  return { failure: writeAuthorityText(file, stored.text).failure, stored }
}
