import {
  derivedIncompleteReasons,
  derivedResidualUnknowns,
  filesystemAccountingCut,
  filesystemTruncated,
} from '../../src/evidence/derived-unknowns.js'
import type { Evidence, ResidualUnknown } from '../../src/evidence/schema.js'

/**
 * After a test edits the accounting of a capture on purpose (an incomplete drain, an omitted frame), brings
 * every fact derived from it up to date — summary flags, residual unknowns, journal completeness — the way a
 * capture writes them, so the edited document is consistent and import accepts it. Mutates and returns it.
 */
export function rederive<T extends Evidence>(
  evidence: T,
  extra: {
    readonly unknowns?: readonly ResidualUnknown[]
    readonly incompleteReasons?: readonly string[]
  } = {},
): T {
  const details = evidence.truncation_details
  const raw = details.raw_terminal
  raw.truncated = raw.omitted_chunks > 0 || raw.drain === 'incomplete'
  const rendered = details.rendered_terminal
  rendered.truncated = rendered.omitted_for_budget > 0 || rendered.omitted_for_raw_gap > 0
  for (const accounting of [details.filesystem_before, details.filesystem_after]) {
    if (accounting !== null) {
      accounting.truncated = filesystemAccountingCut(accounting)
    }
  }
  evidence.truncated =
    raw.truncated || rendered.truncated || filesystemTruncated(evidence) || details.process.limit_reached
  evidence.residual_unknowns = [...derivedResidualUnknowns(evidence), ...(extra.unknowns ?? [])]
  const reasons = [...derivedIncompleteReasons(evidence), ...(extra.incompleteReasons ?? [])]
  evidence.journal.incomplete_reasons = reasons
  evidence.journal.complete = reasons.length === 0
  return evidence
}
