import { monotonicNow } from '../internal/monotonic-clock.js'

/** How long synchronous filesystem work runs before it yields to the event loop. */
const SLICE_MS = 10

/**
 * Slices synchronous work: yields to the event loop once a slice has run for {@link SLICE_MS}, so timers,
 * progress and cancellation still run during a long walk or hashing pass.
 */
export class Pacer {
  #sliceStarted = monotonicNow()

  async pause(): Promise<void> {
    if (monotonicNow() - this.#sliceStarted < SLICE_MS) {
      return
    }
    await new Promise((resolve) => setImmediate(resolve))
    this.#sliceStarted = monotonicNow()
  }
}
