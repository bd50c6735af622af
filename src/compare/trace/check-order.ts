import type { EventMatch } from './match-events.js'
import { comparePositions, describeObservation, type Positioned } from './observations.js'
import type { TraceConstraintResult, TraceUnknown, TraceViolation } from './result-schema.js'
import { traceEventKind, type TraceEventKind, type TraceSpec } from './spec-schema.js'

export interface OrderCheck {
  readonly constraints: TraceConstraintResult[]
  readonly violations: TraceViolation[]
  readonly unknowns: TraceUnknown[]
}

/**
 * Checks each constraint over every observed pair: each occurrence of `before` must come before each
 * occurrence of `after` in the journal order. It suffices to compare the last `before` with the first `after`.
 *
 * An inversion proves a violation only when the journal order cannot differ from the order things happened:
 * - two lines: one terminal stream, first in, first out;
 * - `before` is an interaction: REA records it no later than it acts, so anything it observed earlier happened
 *   earlier.
 * A line or the exit is observed after it happened (a line when REA reads it, the exit after the drain), so
 * when one of them is `before` and came later than an event of another kind, the order is unresolved: unknown.
 */
export function checkOrder(spec: TraceSpec, matches: readonly EventMatch[]): OrderCheck {
  const byId = new Map(matches.map((match) => [match.event.id, match]))
  const violations: TraceViolation[] = []
  const unknowns: TraceUnknown[] = []
  const constraints = spec.order.map((constraint, index): TraceConstraintResult => {
    const before = byId.get(constraint.before)
    const after = byId.get(constraint.after)
    const base = { index, before: constraint.before, after: constraint.after }
    if (before === undefined || after === undefined) {
      // The validator rejects such a constraint; a hand-built spec object may still hold one.
      return { ...base, status: 'unknown', reason: 'unknown_event', pairs_checked: 0 }
    }
    const pairs = before.occurrences.length * after.occurrences.length
    const last = latest(before.occurrences)
    const first = earliest(after.occurrences)
    if (last !== undefined && first !== undefined && comparePositions(first, last) < 0) {
      const beforeKind = traceEventKind(before.event)
      const afterKind = traceEventKind(after.event)
      const detail = `${constraint.before} must come before ${constraint.after}, but ${describeObservation(first.observation)} was observed before ${describeObservation(last.observation)}`
      if (inversionProven(beforeKind, afterKind)) {
        violations.push({
          kind: 'order_inversion',
          constraint_index: index,
          before: constraint.before,
          after: constraint.after,
          before_observation: last.observation,
          after_observation: first.observation,
          detail,
        })
        return { ...base, status: 'violated', pairs_checked: pairs }
      }
      unknowns.push({
        reason: 'order_unresolved',
        detail: `${detail}; REA observes ${beforeKind === 'line' ? 'a line when it reads it' : 'the exit after draining output'}, which can be later than it happened, so this does not prove the order was broken`,
        constraint_index: index,
      })
      return { ...base, status: 'unknown', reason: 'order_unresolved', pairs_checked: pairs }
    }
    // Unseen occurrences (output left out, an unobserved exit) could still break the order.
    const undecided = [before, after].find((match) => match.result.status === 'unknown')
    if (undecided !== undefined) {
      return {
        ...base,
        status: 'unknown',
        reason: undecided.result.reason ?? 'unknown',
        pairs_checked: pairs,
      }
    }
    return { ...base, status: 'satisfied', pairs_checked: pairs }
  })
  return { constraints, violations, unknowns }
}

function inversionProven(before: TraceEventKind, after: TraceEventKind): boolean {
  return before === 'interaction' || (before === 'line' && after === 'line')
}

function latest(occurrences: readonly Positioned[]): Positioned | undefined {
  return occurrences.reduce<Positioned | undefined>(
    (found, next) => (found === undefined || comparePositions(next, found) > 0 ? next : found),
    undefined,
  )
}

function earliest(occurrences: readonly Positioned[]): Positioned | undefined {
  return occurrences.reduce<Positioned | undefined>(
    (found, next) => (found === undefined || comparePositions(next, found) < 0 ? next : found),
    undefined,
  )
}
