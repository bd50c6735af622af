import type { Evidence } from '../evidence/schema.js'
import type { TimingPolicy } from './comparison-schema.js'

/** A time of each side as it is compared, and what it is counted from. */
export interface ComparedTimes {
  readonly authority: number
  readonly reconstruction: number
  /** `launch`, or the index of the waited event both spans start at. */
  readonly from: 'launch' | number
}

interface SyncPoint {
  readonly eventIndex: number
  readonly sequence: number
  readonly atMs: number
}

/**
 * The events a side dispatched after waiting for the program, in journal order: the points where the program
 * and REA met. What follows such a point happens after the program showed what the event waited for, so a
 * slower prompt before it says nothing about the program's speed after it.
 */
function syncPoints(evidence: Evidence): SyncPoint[] {
  const events = evidence.commitments.comparison_contract.value.events
  return evidence.interactions
    .filter(
      (interaction) =>
        interaction.outcome === 'dispatched' && events[interaction.event_index]?.after !== undefined,
    )
    .map((interaction) => ({
      eventIndex: interaction.event_index,
      sequence: interaction.sequence,
      atMs: interaction.at_ms,
    }))
    .sort((a, b) => a.sequence - b.sequence)
}

function sameEvents(a: readonly SyncPoint[], b: readonly SyncPoint[]): boolean {
  return a.length === b.length && a.every((point, index) => point.eventIndex === b[index]?.eventIndex)
}

/** A record of the Evidence with its place in the journal and its time from launch: an exit, an interaction. */
interface TimedRecord {
  readonly sequence: number
  readonly at_ms: number
}

/**
 * Counts two times that the Evidence measures from launch (an exit, the dispatch of an event without `after`)
 * from the latest synchronization point before them, when both sides dispatched the same waited events and that
 * point is the same event on both: the span since that event, not since launch. Under `strict`, when the sides
 * waited for different events, when no waited event came before, or with `fromLaunch` (a time a deadline set, which
 * counts from launch by nature), both are compared as recorded.
 *
 * @example
 * // Both answered the prompt (event 0, waited) and exited: 86 ms vs 642 ms from launch, but 40 vs 41 ms after it.
 * compareFromSync(a, b, 'tolerant', a.exit, b.exit) // a.exit.at_ms 86, b.exit.at_ms 642
 */
export function compareFromSync(
  authority: Evidence,
  reconstruction: Evidence,
  policy: TimingPolicy,
  a: TimedRecord,
  b: TimedRecord,
  fromLaunch = false,
): ComparedTimes {
  const asRecorded: ComparedTimes = { authority: a.at_ms, reconstruction: b.at_ms, from: 'launch' }
  if (policy === 'strict' || fromLaunch) {
    return asRecorded
  }
  const left = syncPoints(authority)
  const right = syncPoints(reconstruction)
  if (!sameEvents(left, right)) {
    return asRecorded
  }
  const before = (points: readonly SyncPoint[], sequence: number) =>
    points.filter((point) => point.sequence < sequence).at(-1)
  const x = before(left, a.sequence)
  const y = before(right, b.sequence)
  if (x === undefined || y === undefined || x.eventIndex !== y.eventIndex) {
    return asRecorded
  }
  return { authority: a.at_ms - x.atMs, reconstruction: b.at_ms - y.atMs, from: x.eventIndex }
}

/** How a compared time is counted, for a difference's summary: ` (since event 2 was sent)` or nothing. */
export function countedFrom(times: ComparedTimes): string {
  return times.from === 'launch'
    ? ''
    : ` (counted from when event ${times.from}, which waited for the program, was sent)`
}
