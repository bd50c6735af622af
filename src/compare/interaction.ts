import type { Evidence, Interaction } from '../evidence/schema.js'
import type { DimensionResult, TimingPolicy } from './comparison-schema.js'
import { DimensionFindings } from './findings.js'
import { timingDiffers } from './timing.js'

/**
 * The interaction dimension: what became of each scripted event (dispatched, skipped because the target had
 * exited, failed) and, for signals, the identity-checked delivery. Dispatch times count under the timing policy.
 */
export function compareInteractions(
  authority: Evidence,
  reconstruction: Evidence,
  policy: TimingPolicy,
): DimensionResult {
  const findings = new DimensionFindings('interaction')
  const left = byEventIndex(authority.interactions)
  const right = byEventIndex(reconstruction.interactions)
  const indexes = [...new Set([...left.keys(), ...right.keys()])].sort((p, q) => p - q)
  for (const eventIndex of indexes) {
    const x = left.get(eventIndex)
    const y = right.get(eventIndex)
    const location = { kind: 'interaction' as const, event_index: eventIndex }
    if (x === undefined || y === undefined) {
      findings.differ(
        `interactions[event_index=${eventIndex}]`,
        `event ${eventIndex} has a dispatch record only in the ${x === undefined ? 'reconstruction' : 'authority'}`,
        x === undefined ? null : x.outcome,
        y === undefined ? null : y.outcome,
        location,
      )
      continue
    }
    for (const field of ['type', 'outcome', 'delivery', 'reason'] as const) {
      if (x[field] !== y[field]) {
        findings.differ(
          `interactions[event_index=${eventIndex}].${field}`,
          `event ${eventIndex} (${x.type}): ${field} differs`,
          x[field] ?? null,
          y[field] ?? null,
          location,
        )
      }
    }
    if (x.outcome === 'dispatched' && y.outcome === 'dispatched' && timingDiffers(x.at_ms, y.at_ms, policy)) {
      findings.differ(
        `interactions[event_index=${eventIndex}].at_ms`,
        `event ${eventIndex} (${x.type}) was dispatched at a different time`,
        x.at_ms,
        y.at_ms,
        location,
      )
    }
  }
  return findings.result()
}

function byEventIndex(interactions: readonly Interaction[]): Map<number, Interaction> {
  return new Map(interactions.map((interaction) => [interaction.event_index, interaction]))
}
