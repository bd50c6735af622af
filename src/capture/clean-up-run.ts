import type { RootBinding } from '../process/bind-root.js'
import { cleanUpOwnedProcesses, type OwnedCleanupResult } from '../process/cleanup.js'
import type { Settlement } from '../process/settle.js'
import type { RunContext } from './run-context.js'
import type { CleanupStates } from './progress.js'
import { createMonotonicClock } from '../internal/monotonic-clock.js'

/** What the cleanup phase did. */
export interface CleanedUpRun {
  readonly owned: OwnedCleanupResult
  readonly states: CleanupStates
  /** The root's binding, settled by now; undefined when the command never started. */
  readonly rootBinding: RootBinding | undefined
  readonly elapsedMs: number
}

/**
 * The cleanup phase, on every path: kill and confirm gone every owned process (starting from settlement's last
 * observation), release the supervisor's hold on the token, dispose of the renderer and the PTY session.
 */
export async function cleanUpRun(run: RunContext, settlement: Settlement): Promise<CleanedUpRun> {
  const { launch, observers } = run
  const clock = createMonotonicClock()
  const { root } = launch
  const owned = await cleanUpOwnedProcesses(root?.tree, settlement.lastObservation)
  launch.supervised?.release()
  const rootBinding = root === undefined ? undefined : await root.binding
  observers.renderer.dispose()
  observers.live?.dispose()
  root?.session.dispose()
  return {
    owned,
    states: { owned_processes: owned.status, renderer: 'disposed', temporary_root: 'not_created' },
    rootBinding,
    elapsedMs: Math.round(clock.preciseMs()),
  }
}
