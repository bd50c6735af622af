import { quoteText } from '../internal/escape-controls.js'
import type { WaitCondition } from '../scenario/schema.js'
import { conditionOf, type WaitConditionKind } from '../scenario/wait-condition.js'
import type { RunFlaw, WaitedEvent } from './run-flaws.js'
import type { Evidence, Interaction } from './schema.js'

/**
 * How a run went, in words for people: what each event waited for and what became of it, and why a run cannot
 * stand for the program's behaviour. Values from the scenario and the program are quoted by the one rule.
 */

const CONDITION_WORDS: Record<WaitConditionKind, string> = {
  output: 'output',
  output_regex: 'output matching',
  screen: 'screen',
  screen_regex: 'screen matching',
  gone: 'screen without',
}

/** `screen "Name? "`, `output matching "^> "`, `screen without "-- INSERT --"`. */
export function describeCondition(condition: {
  readonly kind: WaitConditionKind
  readonly text: string
}): string {
  return `${CONDITION_WORDS[condition.kind]} ${quoteText(condition.text)}`
}

export const ms = (value: number): string => `${value.toLocaleString('en-US')} ms`

/** `event 1 (input) waited for screen "Name? " from 120 ms and was skipped at 30,000 ms: <reason> [deadline]`. */
export function describeWaitedEvent(event: WaitedEvent): string {
  const condition = event.condition === null ? 'its condition' : describeCondition(event.condition)
  const since = event.since_ms === 0 ? 'launch' : ms(event.since_ms)
  return `event ${event.event_index} (${event.type}) waited for ${condition} from ${since} and was skipped at ${ms(event.ended_at_ms)}: ${event.reason} [${event.cause}]`
}

export function describeFlaw(flaw: RunFlaw): string {
  switch (flaw.kind) {
    case 'skipped_wait':
      return describeWaitedEvent(flaw.event)
    case 'cancelled':
      return 'the capture was cancelled, so REA ended the command'
    case 'deadline':
      return `REA's ${flaw.reason === 'timeout' ? 'timeout_ms' : 'idle_timeout_ms'} (${flaw.limit_ms === null ? 'off' : ms(flaw.limit_ms)}) ended the run, and the scenario does not expect a deadline (its finalization_ms is 0)`
  }
}

/**
 * One line per event: its outcome, when, and for a skip its cause; for an event that waited, what for and
 * whether that was met. `0 input dispatched at 402 ms (waited for screen "Name? ", met at 398 ms)`.
 */
export function describeInteractions(evidence: Evidence): string[] {
  const events = evidence.commitments.comparison_contract.value.events
  return [...evidence.interactions]
    .sort((a, b) => a.event_index - b.event_index)
    .map((interaction) => {
      const after = events[interaction.event_index]?.after
      return `${interaction.event_index} ${interaction.type} ${outcomeWords(interaction)}${after === undefined ? '' : ` (${waitWords(after, interaction)})`}`
    })
}

function outcomeWords(interaction: Interaction): string {
  const at = `at ${ms(interaction.at_ms)}`
  switch (interaction.outcome) {
    case 'dispatched':
      return `dispatched ${at}${interaction.delivery === undefined ? '' : ` (${interaction.delivery})`}`
    case 'skipped':
      return `skipped ${at}: ${interaction.reason ?? 'no reason recorded'}${interaction.cause === undefined ? '' : ` [${interaction.cause}]`}`
    case 'failed':
      return `failed ${at}: ${interaction.reason ?? 'no reason recorded'}`
  }
}

function waitWords(after: WaitCondition, interaction: Interaction): string {
  const condition = conditionOf(after)
  const what = condition === null ? 'its condition' : describeCondition(condition)
  const met = interaction.wait?.met_at_ms ?? null
  return `waited for ${what}, ${met === null ? 'never met' : `met at ${ms(met)}`}`
}
