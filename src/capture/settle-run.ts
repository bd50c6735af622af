import type { Interaction } from '../evidence/schema.js'
import { awaitSettlement, type Settlement } from '../process/settle.js'
import type { RunContext } from './run-context.js'

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
export async function settleRun(run: RunContext): Promise<SettledRun> {
  const { observers, scheduler, files } = run
  const settlement = await awaitSettlement(run.sampler, run.resolved.scenario.settle_ms)
  await files.takeAfter(observers.journal)
  if (scheduler !== undefined) {
    await observers.frames.record({ trigger: 'final' })
  }
  return { settlement, interactions: scheduler === undefined ? [] : await scheduler.interactions() }
}
