import type { MonotonicClock } from '../internal/monotonic-clock.js'

/** Where an observation stands in the capture's one ordered event journal. */
export interface JournalPosition {
  readonly sequence: number
  readonly at_ms: number
}

/**
 * The capture's one journal clock: hands out the global sequence numbers, each with its time. The recorders
 * below the capture lifecycle share one instance. Numbers are gap-free: every number belongs to exactly one recorded
 * observation, so a journal read back from Evidence is complete exactly when no number is missing.
 */
export class SequenceClock {
  readonly #clock: MonotonicClock
  #next = 0

  constructor(clock: MonotonicClock) {
    this.#clock = clock
  }

  record(): JournalPosition {
    return { sequence: this.#next++, at_ms: this.#clock.nowMs() }
  }

  /** Whether `sequence` is the most recent entry, i.e. nothing was recorded after it. */
  isLatest(sequence: number): boolean {
    return sequence === this.#next - 1
  }

  get nextSequence(): number {
    return this.#next
  }

  nowMs(): number {
    return this.#clock.nowMs()
  }
}
