/** Milliseconds since a fixed origin on the monotonic clock; immune to wall-clock adjustments. */
export interface MonotonicClock {
  /** Whole milliseconds since the origin. */
  nowMs(): number
  /** Fractional milliseconds since the origin, for measurements finer than a millisecond. */
  preciseMs(): number
}

export function createMonotonicClock(originMs: number = performance.now()): MonotonicClock {
  return {
    nowMs: () => Math.floor(performance.now() - originMs),
    preciseMs: () => performance.now() - originMs,
  }
}
