import { setTimeout as delay } from 'node:timers/promises'
import type { TreeObservation } from './owned-tree.js'
import type { ProcessSampler } from './sampler.js'
import { createMonotonicClock } from '../internal/monotonic-clock.js'

/** How often settlement looks again while owned processes remain. */
const SETTLE_POLL_MS = 20

export type SettlementStatus = 'quiesced' | 'cleanup_needed' | 'unverifiable'

export interface Settlement {
  readonly status: SettlementStatus
  readonly elapsed_ms: number
  readonly reason?: string
  /** The last observation; cleanup starts from it instead of observing again. */
  readonly lastObservation?: TreeObservation
}

/**
 * After the root exited, samples the owned tree (token, lineage, the root's session and group) until nothing
 * owned is left (`quiesced`) or `settleMs` runs out (`cleanup_needed`). It returns as soon as the tree is quiet,
 * so a short command does not pay the whole interval. A related process whose ownership REA cannot read makes
 * the outcome `unverifiable`.
 */
export async function awaitSettlement(
  sampler: ProcessSampler | undefined,
  settleMs: number,
): Promise<Settlement> {
  const clock = createMonotonicClock()
  const elapsed = (): number => Math.round(clock.preciseMs())
  if (sampler === undefined) {
    return {
      status: 'unverifiable',
      elapsed_ms: 0,
      reason: `process inspection is not available on ${process.platform}`,
    }
  }
  for (;;) {
    const observation = await sampler.sample({ includeSession: true })
    const related = observation.unreadable.filter((process) => process.related)
    if (observation.owned.length === 0) {
      return related.length === 0
        ? { status: 'quiesced', elapsed_ms: elapsed(), lastObservation: observation }
        : {
            status: 'unverifiable',
            elapsed_ms: elapsed(),
            reason: `related processes whose ownership could not be read: ${related.map((process) => process.pid).join(', ')}`,
            lastObservation: observation,
          }
    }
    if (clock.preciseMs() >= settleMs) {
      return { status: 'cleanup_needed', elapsed_ms: elapsed(), lastObservation: observation }
    }
    await delay(Math.min(SETTLE_POLL_MS, Math.max(1, settleMs - clock.preciseMs())))
  }
}
