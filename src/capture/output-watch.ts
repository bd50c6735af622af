import type { MonotonicClock } from '../internal/monotonic-clock.js'
import type { EventWait } from './event-wait.js'
import type { OutputWatcher } from './observers.js'

/**
 * The output as the scheduled events wait on it: when it last came (`quiet_ms` counts from there) and the wait
 * that looks at it now. Built before the observers, which tell it of every chunk's comparison text, and handed
 * to the scheduler, which sets the current wait.
 */
export class OutputWatch implements OutputWatcher {
  readonly #clock: MonotonicClock
  #lastOutputMs = 0
  /** The wait of the event due now; undefined when no event waits on the output. */
  wait: EventWait | undefined

  constructor(clock: MonotonicClock) {
    this.#clock = clock
  }

  get lastOutputMs(): number {
    return this.#lastOutputMs
  }

  /** Normalized output as it arrives: output waits look at it, quiet_ms counts from it. */
  noteOutput(text: string): void {
    this.#lastOutputMs = this.#clock.nowMs()
    this.wait?.noteOutput(text)
  }

  /** Whether an event waits on the output stream now (so the recorder hands over text it would not keep). */
  get watchesOutput(): boolean {
    return this.wait !== undefined
  }
}
