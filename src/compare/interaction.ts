import type { Evidence, Interaction } from '../evidence/schema.js'
import { skipCause, WAIT_TIMED_OUT, type RunEndReason } from '../evidence/skip-cause.js'
import type { DimensionResult, TimingPolicy } from './comparison-schema.js'
import { DimensionFindings } from './findings.js'
import { endedEarlyResult } from './unknowns/ended-early.js'
import { compareFromSync, countedFrom } from './sync-points.js'

/**
 * The interaction dimension: what became of each scripted event (dispatched, skipped and by whose doing,
 * failed) and, for signals, the identity-checked delivery. Dispatch times count under the timing policy.
 */
export function compareInteractions(
  authority: Evidence,
  reconstruction: Evidence,
  policy: TimingPolicy,
): DimensionResult {
  const ended = endedEarlyResult('interaction', authority, reconstruction)
  if (ended !== null) {
    return ended
  }
  const findings = new DimensionFindings('interaction')
  const sides: ComparedSides = { findings, authority, reconstruction, policy }
  const left = byEventIndex(authority.interactions)
  const right = byEventIndex(reconstruction.interactions)
  const indexes = [...new Set([...left.keys(), ...right.keys()])].sort((p, q) => p - q)
  for (const eventIndex of indexes) {
    const x = left.get(eventIndex)
    const y = right.get(eventIndex)
    const location = eventLocation(eventIndex)
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
    if (x.delivery === 'unverified' || y.delivery === 'unverified') {
      findings.unknown(
        'delivery_unverified',
        `event ${eventIndex} (${x.type}): REA could not verify the signal's delivery on the ${x.delivery === 'unverified' ? 'authority' : 'reconstruction'} side`,
      )
      continue
    }
    compareOutcomes(sides, eventIndex, x, y)
    compareEventTimes(sides, eventIndex, x, y)
  }
  return findings.result()
}

/** The two captures being compared, the policy, and where findings go. */
interface ComparedSides {
  readonly findings: DimensionFindings
  readonly authority: Evidence
  readonly reconstruction: Evidence
  readonly policy: TimingPolicy
}

/** What became of the event on each side (type, outcome and its detail), and the bytes a keys event sent. */
function compareOutcomes(sides: ComparedSides, eventIndex: number, x: Interaction, y: Interaction): void {
  const { findings, authority, reconstruction } = sides
  const location = eventLocation(eventIndex)
  const p = effectiveOutcome(x, authority.exit.reason)
  const q = effectiveOutcome(y, reconstruction.exit.reason)
  if (x.type !== y.type) {
    findings.differ(
      `interactions[event_index=${eventIndex}].type`,
      `event ${eventIndex} has a different type`,
      x.type,
      y.type,
      location,
    )
  } else if (p.outcome !== q.outcome) {
    findings.differ(
      `interactions[event_index=${eventIndex}].outcome`,
      `event ${eventIndex} (${x.type}) was ${p.outcome} in the authority, ${q.outcome} in the reconstruction`,
      p.outcome,
      q.outcome,
      location,
    )
  } else if (p.detail !== q.detail) {
    findings.differ(
      `interactions[event_index=${eventIndex}].${p.outcome === 'dispatched' ? 'delivery' : 'reason'}`,
      `event ${eventIndex} (${x.type}) ${p.outcome === 'failed' ? 'failed for another reason' : p.outcome === 'skipped' ? 'was skipped for another reason' : 'had another delivery'}`,
      p.detail,
      q.detail,
      location,
    )
  }
  if (x.bytes_sent !== y.bytes_sent) {
    // The same keys make other bytes in another cursor-key mode: the program had set up its terminal otherwise.
    findings.differ(
      `interactions[event_index=${eventIndex}].bytes_sent`,
      `event ${eventIndex} (keys) sent a different number of bytes`,
      x.bytes_sent ?? null,
      y.bytes_sent ?? null,
      location,
    )
  }
}

/** When the event was dispatched, and when what it waited for was shown: under the timing policy. */
function compareEventTimes(sides: ComparedSides, eventIndex: number, x: Interaction, y: Interaction): void {
  const { findings, authority, reconstruction, policy } = sides
  const location = eventLocation(eventIndex)
  // When a waited event went in is the program's speed, not the scenario: only the strict policy compares it.
  const waited = authority.commitments.comparison_contract.value.events[eventIndex]?.after !== undefined
  if (x.outcome === 'dispatched' && y.outcome === 'dispatched' && (!waited || policy === 'strict')) {
    // Compared at all only under strict for a waited event, where every time counts from launch.
    const times = compareFromSync(authority, reconstruction, policy, x, y)
    findings.time(
      `interactions[event_index=${eventIndex}].at_ms`,
      `event ${eventIndex} (${x.type}) was dispatched at a different time${countedFrom(times)}`,
      times.authority,
      times.reconstruction,
      policy,
      location,
    )
  }
  const metX = x.wait?.met_at_ms ?? null
  const metY = y.wait?.met_at_ms ?? null
  if (metX !== null && metY !== null && policy === 'strict') {
    findings.time(
      `interactions[event_index=${eventIndex}].wait.met_at_ms`,
      `event ${eventIndex} (${x.type}) saw what it waited for at a different time`,
      metX,
      metY,
      policy,
      location,
    )
  } else if (waited && metX !== metY) {
    findings.note(
      `event ${eventIndex}: what it waited for was shown at ${String(metX)} ms in the authority, ${String(metY)} ms in the reconstruction (the program's speed; only timing: 'strict' compares it)`,
    )
  }
}

/**
 * What an event's record says happened, in words that do not depend on timing races: a signal that found its
 * target gone is the same as an event skipped because the target had exited, and the wording of a skip reason
 * says only when REA noticed: its cause (who ended the run) is compared. A failure's reason does count.
 */
function effectiveOutcome(
  interaction: Interaction,
  runEnd: RunEndReason,
): { outcome: string; detail: string | null } {
  if (
    interaction.reason === WAIT_TIMED_OUT ||
    interaction.outcome === 'skipped' ||
    interaction.delivery === 'gone'
  ) {
    return { outcome: 'skipped', detail: skipCause(interaction, runEnd) }
  }
  if (interaction.outcome === 'failed') {
    return { outcome: 'failed', detail: interaction.reason ?? null }
  }
  return { outcome: interaction.outcome, detail: interaction.delivery ?? null }
}

const eventLocation = (eventIndex: number) => ({ kind: 'interaction' as const, event_index: eventIndex })

function byEventIndex(interactions: readonly Interaction[]): Map<number, Interaction> {
  return new Map(interactions.map((interaction) => [interaction.event_index, interaction]))
}
