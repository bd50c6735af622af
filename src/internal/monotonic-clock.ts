/** Milliseconds since a fixed origin on the monotonic clock; immune to wall-clock adjustments. */
export interface MonotonicClock {
  /** Whole milliseconds since the origin. */
  nowMs(): number
  /** Fractional milliseconds since the origin, for measurements finer than a millisecond. */
  preciseMs(): number
}

/**
 * Fractional milliseconds on the monotonic clock, from an origin of its own (not `performance.timeOrigin`): only
 * differences mean anything. REA does not use `performance.now()`: Node creates the `performance` global on first use,
 * loading its perf_hooks modules, which a CLI capture would then load for a clock.
 */
export function monotonicNow(): number {
  return Number(process.hrtime.bigint()) / 1e6
}

export function createMonotonicClock(originMs: number = monotonicNow()): MonotonicClock {
  return {
    nowMs: () => Math.floor(monotonicNow() - originMs),
    preciseMs: () => monotonicNow() - originMs,
  }
}
