import type { Evidence } from '../schema.js'
import { WAIT_TIMED_OUT } from '../skip-cause.js'
import type { DerivedFacts } from './facts.js'

const OUTCOME_BY_DELIVERY = {
  signaled: 'dispatched',
  gone: 'skipped',
  'identity-changed': 'skipped',
  unverified: 'failed',
} as const

/** Each record answers one event of the contract, once, with that event's type and schedule. */
export function checkInteractions(evidence: Evidence, facts: DerivedFacts): void {
  const { events } = evidence.commitments.comparison_contract.value
  const answered = new Set<number>()
  evidence.interactions.forEach((interaction, index) => {
    const at = `interactions[${index}]`
    const event = events[interaction.event_index]
    facts.expect(
      event !== undefined && !answered.has(interaction.event_index),
      `${at}.event_index`,
      'the contract’s events',
      () =>
        `event ${interaction.event_index} ${event === undefined ? 'does not exist' : 'already has a record'}`,
    )
    answered.add(interaction.event_index)
    if (event === undefined) {
      return
    }
    facts.expect(
      interaction.type === event.type,
      `${at}.type`,
      `the contract’s events[${interaction.event_index}].type`,
      () => `${interaction.type} against ${event.type}`,
    )
    facts.expect(
      interaction.scheduled_at_ms === (event.at_ms ?? null),
      `${at}.scheduled_at_ms`,
      `the contract’s events[${interaction.event_index}].at_ms`,
      () => `${String(interaction.scheduled_at_ms)} against ${String(event.at_ms ?? null)}`,
    )
    facts.expect(
      (interaction.wait !== undefined) === (event.after !== undefined),
      `${at}.wait`,
      `the contract’s events[${interaction.event_index}].after`,
      () => 'an interaction records a wait exactly when its event has after',
    )
    facts.expect(
      interaction.reason !== WAIT_TIMED_OUT ||
        (interaction.outcome === 'skipped' && interaction.wait?.met_at_ms === null),
      `${at}.reason`,
      `${at}.outcome and wait`,
      () => 'a wait that timed out skipped its event, and its condition was never met',
    )
    facts.expect(
      interaction.cause === undefined ||
        (interaction.outcome === 'skipped' &&
          (interaction.cause === 'wait_timed_out') === (interaction.reason === WAIT_TIMED_OUT)),
      `${at}.cause`,
      `${at}.outcome and reason`,
      () => 'only a skipped event has a cause, and wait_timed_out is the cause exactly when it is the reason',
    )
    facts.expect(
      interaction.bytes_sent === undefined ||
        (event.type === 'input' && !('data' in event) && !('data_bytes' in event)),
      `${at}.bytes_sent`,
      `the contract’s events[${interaction.event_index}]`,
      () => 'bytes are counted only for input sent as keys',
    )
    const keyCount = 'keys' in event ? event.keys.length : 'key_count' in event ? event.key_count : 0
    facts.expect(
      interaction.keys_written === undefined ||
        (interaction.outcome !== 'skipped' && interaction.keys_written < keyCount),
      `${at}.keys_written`,
      `the contract’s events[${interaction.event_index}]`,
      () => 'only a keys event cut short (the run ended, or a write failed) counts the keys it wrote',
    )
    facts.expect(
      interaction.exchange === undefined || interaction.type === 'input',
      `${at}.exchange`,
      `${at}.type`,
      () => 'only input waits for the terminal exchange',
    )
    const delivery = interaction.delivery
    facts.expect(
      delivery === undefined
        ? interaction.type !== 'signal' || interaction.outcome === 'skipped'
        : interaction.type === 'signal' && OUTCOME_BY_DELIVERY[delivery] === interaction.outcome,
      `${at}.delivery`,
      `${at}.type and outcome`,
      () =>
        `a ${interaction.type} event that was ${interaction.outcome} cannot have delivery ${String(delivery)}`,
    )
  })
}
