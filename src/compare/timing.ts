import type { TimingPolicy } from './comparison-schema.js'

/**
 * Two timing values (`at_ms`, `elapsed_ms`, `sent_at_ms`) differ under the tolerant policy only when they are
 * further apart than 250 ms and than half the larger one: identical runs on a loaded CI machine drift by tens
 * of milliseconds and by whole multiples under contention, while a reconstruction that waits seconds longer, or
 * dispatches an event in a different phase of the run, still shows up.
 */
export const TIMING_TOLERANCE = { min_ms: 250, fraction: 0.5 } as const

export function timingDiffers(
  authority: number | null,
  reconstruction: number | null,
  policy: TimingPolicy,
): boolean {
  if (authority === null || reconstruction === null) {
    return authority !== reconstruction
  }
  const delta = Math.abs(authority - reconstruction)
  if (policy === 'strict') {
    return delta > 0
  }
  return (
    delta > Math.max(TIMING_TOLERANCE.min_ms, TIMING_TOLERANCE.fraction * Math.max(authority, reconstruction))
  )
}
