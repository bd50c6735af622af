import type { Interaction } from '../evidence/schema.js'
import type { ProcessSampler } from '../process/sampler.js'
import { awaitSettlement, type Settlement } from '../process/settle.js'
import type { FilesystemCheckpoints } from './filesystem-checkpoints.js'
import type { Observers } from './observers.js'
import type { EventScheduler } from './scheduler.js'

/** What the settling phase leaves for cleanup and assembly. */
export interface SettledRun {
  readonly settlement: Settlement
  readonly interactions: Interaction[]
}

/**
 * The settling phase: observe the process tree after the exit until it quiesces or `settle_ms` runs out, take
 * the after_settlement filesystem checkpoint, the final frame (when the command ran) and every interaction
 * record once pending signal deliveries have settled.
 */
export async function settleRun(
  settleMs: number,
  observers: Observers,
  sampler: ProcessSampler | undefined,
  scheduler: EventScheduler | undefined,
  files: FilesystemCheckpoints,
): Promise<SettledRun> {
  const settlement = await awaitSettlement(sampler, settleMs)
  await files.takeAfter(observers.journal)
  if (scheduler !== undefined) {
    await observers.frames.record({ trigger: 'final' })
  }
  return { settlement, interactions: scheduler === undefined ? [] : await scheduler.interactions() }
}
