import { conditionOf, type WaitConditionKind } from '../scenario/wait-condition.js'
import type { Evidence, Interaction } from './schema.js'
import { skipCause, type SkipCause } from './skip-cause.js'

/** An event that waited for what the program shows, and what became of that wait. */
export interface WaitedEvent {
  readonly event_index: number
  readonly type: Interaction['type']
  /** The condition of its `after`; null only for a contract that names none (never for valid Evidence). */
  readonly condition: { readonly kind: WaitConditionKind; readonly text: string } | null
  /** When its wait began: when the event before it was dispatched or skipped, or launch (0). */
  readonly since_ms: number
  /** When REA recorded its end (the skip). */
  readonly ended_at_ms: number
  readonly cause: SkipCause
  /** The skip sentence as recorded. */
  readonly reason: string
}

/**
 * Why a capture did not run as its scenario expects, so it cannot stand for the program's behaviour (an
 * authority recorded from it would pass green while proving nothing):
 * - `skipped_wait`: an event waited for something the program never showed (by any cause);
 * - `cancelled`: the capture was cancelled, so REA ended the command;
 * - `deadline`: `timeout_ms` or `idle_timeout_ms` ended the run, which a scenario expects only when it gives
 *   the command a `finalization_ms` to finish in.
 */
export type RunFlaw =
  | { readonly kind: 'skipped_wait'; readonly event: WaitedEvent }
  | { readonly kind: 'cancelled' }
  | {
      readonly kind: 'deadline'
      readonly reason: 'timeout' | 'idle_timeout'
      readonly limit_ms: number | null
    }

export function runFlaws(evidence: Evidence): RunFlaw[] {
  const flaws: RunFlaw[] = skippedWaits(evidence).map((event) => ({ kind: 'skipped_wait', event }))
  const contract = evidence.commitments.comparison_contract.value
  if (evidence.disposition === 'cancelled') {
    flaws.push({ kind: 'cancelled' })
  }
  const reason = evidence.exit.reason
  if ((reason === 'timeout' || reason === 'idle_timeout') && contract.finalization_ms === 0) {
    flaws.push({
      kind: 'deadline',
      reason,
      limit_ms: reason === 'timeout' ? contract.timeout_ms : contract.idle_timeout_ms,
    })
  }
  return flaws
}

/** Every event with `after` whose wait was never met and that was skipped, in event order. */
export function skippedWaits(evidence: Evidence): WaitedEvent[] {
  const events = evidence.commitments.comparison_contract.value.events
  const byIndex = new Map(evidence.interactions.map((interaction) => [interaction.event_index, interaction]))
  const waited: WaitedEvent[] = []
  for (const [index, event] of events.entries()) {
    const interaction = byIndex.get(index)
    if (
      event.after === undefined ||
      interaction?.outcome !== 'skipped' ||
      interaction.wait?.met_at_ms != null
    ) {
      continue
    }
    waited.push({
      event_index: index,
      type: interaction.type,
      condition: conditionOf(event.after),
      since_ms: index === 0 ? 0 : (byIndex.get(index - 1)?.at_ms ?? 0),
      ended_at_ms: interaction.at_ms,
      cause: skipCause(interaction, evidence.exit.reason),
      reason: interaction.reason ?? '',
    })
  }
  return waited
}

/**
 * The event a run ended while it waited (REA's deadline, a cancellation, REA's failure, or the target's exit),
 * or null when none was waiting: what a person asks first of a capture that hung.
 */
export function waitingAtEnd(evidence: Evidence): WaitedEvent | null {
  return skippedWaits(evidence).find((event) => event.cause !== 'wait_timed_out') ?? null
}
