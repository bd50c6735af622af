import { runFlaws, type RunFlaw } from '../evidence/run-flaws.js'
import type { Evidence } from '../evidence/schema.js'

/** What the user allowed for one authority, by name: the assertion's option, or the flag of `rea review --accept`. */
export interface RecordAllowance {
  /** Record a run that did not go as its scenario expects (`recordUnfinished`, `--record-unfinished`). */
  readonly recordUnfinished: boolean
}

/**
 * Why this capture may not be written as an authority, or null when it may: the one check that `-u`, a first
 * recording, a pending capture and accepting one all apply, so a capture refused by one is refused by all.
 * Today: a run that did not go as its scenario expects (`runFlaws`), unless allowed.
 */
export function recordRefusal(evidence: Evidence, allowance: RecordAllowance): readonly RunFlaw[] | null {
  if (allowance.recordUnfinished) {
    return null
  }
  const flaws = runFlaws(evidence)
  return flaws.length === 0 ? null : flaws
}
