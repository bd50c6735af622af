import type { Evidence } from '../../evidence/schema.js'
import { checkOrder } from './check-order.js'
import { assessCoverage } from './coverage.js'
import { matchEvents } from './match-events.js'
import { observeEvents } from './observations.js'
import type { TraceResult } from './result-schema.js'
import type { TraceSpec } from './spec-schema.js'

/** Violations reported in full; the rest are counted in `violations_omitted` so a flood stays bounded. */
export const MAX_REPORTED_VIOLATIONS = 100

/**
 * Checks a capture's event journal against a trace specification.
 *
 * Every observed line, interaction, exit and file effect must be accepted by a spec event, each spec event
 * must occur exactly `count` times, and the order constraints must hold. The verdict is `violated` when any
 * of that is contradicted by what was observed, even if other observations are missing; otherwise `unknown`
 * when the capture did not fully observe a source (omitted output, incomplete drain, unobserved exit,
 * incomplete filesystem snapshots) or an order could not be resolved; otherwise `satisfied`. Timestamps are
 * never read: order comes from journal sequence numbers and the position of lines in the terminal stream.
 *
 * @example
 * const result = checkTrace(await readEvidenceFile('capture.json'), await readTraceSpecFile('trace.json'))
 * if (result.verdict !== 'satisfied') console.log(formatTraceResult(result).join('\n'))
 */
export function checkTrace(evidence: Evidence, spec: TraceSpec): TraceResult {
  const observed = observeEvents(evidence)
  const coverage = assessCoverage(evidence)
  const matching = matchEvents(spec, observed, coverage, evidence)
  const order = checkOrder(spec, matching.matches)
  const violations = [...matching.violations, ...order.violations]
  const unknowns = [...coverage.unknowns, ...matching.unknowns, ...order.unknowns]
  return {
    verdict: violations.length > 0 ? 'violated' : unknowns.length > 0 ? 'unknown' : 'satisfied',
    events: matching.matches.map((match) => match.result),
    constraints: order.constraints,
    violations: violations.slice(0, MAX_REPORTED_VIOLATIONS),
    violations_omitted: Math.max(0, violations.length - MAX_REPORTED_VIOLATIONS),
    unknown_reasons: unknowns,
    observed: {
      lines: observed.lines.length,
      partial_lines: observed.partialLines,
      interactions: observed.interactions.length,
      exits: observed.exit === undefined ? 0 : 1,
      file_effects: observed.files.length,
    },
  }
}
