import { derivedIncompleteReasons } from '../../evidence/derived-unknowns.js'
import type { Evidence } from '../../evidence/schema.js'

/**
 * The reasons a capture's journal is incomplete that REA does not derive from one source's accounting. Import
 * guarantees that every derived reason is present, and each of those is read where it applies (omitted chunks by
 * the terminal, a missing exit by the exit, …); a reason beyond them names a gap nobody can place, so every
 * observation read from the journal is in doubt.
 */
export function unattributedJournalGaps(evidence: Evidence): string[] {
  if (evidence.journal.complete) {
    return []
  }
  const derived = new Set(derivedIncompleteReasons(evidence))
  return evidence.journal.incomplete_reasons.filter((reason) => !derived.has(reason))
}
