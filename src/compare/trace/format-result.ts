import { escapeControlCharacters } from '../../internal/escape-controls.js'
import type { TraceConstraintResult, TraceEventResult, TraceResult, TraceViolation } from './result-schema.js'

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/**
 * The result as plain text lines for people (no colours): the verdict, each violation with its location,
 * each unknown reason, then every spec event and order constraint with its outcome.
 *
 * @example
 * console.log(formatTraceResult(checkTrace(evidence, spec)).join('\n'))
 */
export function formatTraceResult(result: TraceResult): string[] {
  const violationCount = result.violations.length + result.violations_omitted
  const lines = [
    `Trace ${result.verdict}: ${plural(violationCount, 'violation')}, ${plural(result.unknown_reasons.length, 'unknown reason')}.`,
  ]
  if (violationCount > 0) {
    lines.push('Violations:')
    lines.push(...result.violations.map((violation) => `  - ${describeViolation(violation)}`))
    if (result.violations_omitted > 0) {
      lines.push(`  … and ${plural(result.violations_omitted, 'more violation')}, not listed`)
    }
  }
  if (result.unknown_reasons.length > 0) {
    lines.push('Unknown:')
    for (const unknown of result.unknown_reasons) {
      const where =
        unknown.event_id !== undefined
          ? ` (event ${unknown.event_id})`
          : unknown.constraint_index !== undefined
            ? ` (order[${unknown.constraint_index}])`
            : ''
      lines.push(`  - ${unknown.reason}${where}: ${unknown.detail}`)
    }
  }
  const { observed } = result
  lines.push(
    `Observed: ${plural(observed.lines, 'line')}, ${plural(observed.interactions, 'interaction')}, ` +
      `${plural(observed.exits, 'exit')}, ${plural(observed.file_effects, 'file effect')}` +
      (observed.partial_lines > 0 ? `; ${plural(observed.partial_lines, 'partial line')} not judged` : '') +
      '.',
  )
  if (result.events.length > 0) {
    lines.push(`Events (${result.events.length}):`)
    const width = Math.min(24, Math.max(...result.events.map((event) => event.id.length)))
    lines.push(...result.events.map((event) => `  ${event.id.padEnd(width)}  ${describeEvent(event)}`))
  }
  if (result.constraints.length > 0) {
    lines.push(`Order (${result.constraints.length}):`)
    lines.push(...result.constraints.map((constraint) => `  ${describeConstraint(constraint)}`))
  }
  // Details quote terminal lines and spec text, which may hold escape sequences.
  return lines.map(escapeControlCharacters)
}

function describeViolation(violation: TraceViolation): string {
  switch (violation.kind) {
    case 'unmatched_observation':
      return `unmatched: ${violation.detail}`
    case 'mismatched_observation':
      return `event ${violation.event_id}: ${violation.detail}`
    case 'count_mismatch':
      return `event ${violation.event_id}: ${violation.detail}`
    case 'order_inversion':
      return `order[${violation.constraint_index}]: ${violation.detail}`
  }
}

function describeEvent(event: TraceEventResult): string {
  const outcome = event.status === 'unknown' ? `unknown (${event.reason ?? 'no reason given'})` : event.status
  return `${event.description}: ${event.observed_count} of ${event.expected_count}, ${outcome}`
}

function describeConstraint(constraint: TraceConstraintResult): string {
  const outcome =
    constraint.status === 'unknown'
      ? `unknown (${constraint.reason ?? 'no reason given'})`
      : constraint.status
  return `order[${constraint.index}] ${constraint.before} before ${constraint.after}: ${outcome}, ${plural(constraint.pairs_checked, 'pair')} checked`
}
