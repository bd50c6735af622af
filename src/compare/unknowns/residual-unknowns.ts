import type { Evidence } from '../../evidence/schema.js'
import type { Dimension, DimensionResult } from '../comparison-schema.js'
import { bothSides } from './ended-early.js'
import { MAX_UNKNOWNS_PER_DIMENSION } from '../findings.js'
import { unattributedJournalGaps } from './journal-gaps.js'

/** The dimensions whose observations are ordered and counted by the journal. */
const JOURNAL_DIMENSIONS: ReadonlySet<Dimension> = new Set(['terminal', 'interaction', 'exit'])

/**
 * What either side says it did not fully observe, applied to one dimension's result: each residual unknown for
 * the dimension, and a journal gap REA cannot attribute (for the dimensions read from the journal), makes an
 * equal (or not selected) dimension unknown. A proven difference stays different; its unknowns are listed.
 * Applied to every dimension's result, so no comparator can forget them.
 */
export function withUnobserved(
  dimension: Dimension,
  result: DimensionResult,
  authority: Evidence,
  reconstruction: Evidence,
): DimensionResult {
  const added: { reason: string; detail: string }[] = []
  const listed = (reason: string) =>
    result.unknowns.some((unknown) => unknown.reason === reason) ||
    added.some((unknown) => unknown.reason === reason)
  for (const [side, evidence] of bothSides(authority, reconstruction)) {
    for (const unknown of evidence.residual_unknowns) {
      // A comparator that already named this reason (per path, per root) said it more precisely.
      if (unknown.dimension === dimension && !listed(unknown.reason)) {
        added.push({ reason: unknown.reason, detail: `${side}: ${unknown.detail}` })
      }
    }
    const gaps = JOURNAL_DIMENSIONS.has(dimension) ? unattributedJournalGaps(evidence) : []
    if (gaps.length > 0) {
      added.push({
        reason: 'journal_incomplete',
        detail: `the ${side}'s event journal is incomplete for a reason REA cannot place: ${gaps.join('; ')}`,
      })
    }
  }
  if (added.length === 0) {
    return result
  }
  const room = Math.max(0, MAX_UNKNOWNS_PER_DIMENSION - result.unknowns.length)
  const unknowns = [...result.unknowns, ...added.slice(0, room)]
  if (added.length > room) {
    unknowns.push({ reason: 'more_unknowns', detail: `${added.length - room} more unknowns are not listed` })
  }
  return { ...result, outcome: result.outcome === 'different' ? 'different' : 'unknown', unknowns }
}
