import { buildCommitments } from '../evidence/commitments.js'
import type { Evidence } from '../evidence/schema.js'
import { ProcessSampler } from '../process/sampler.js'
import type { ResolvedScenario } from '../scenario/resolve.js'
import type { PtyBackend } from '../terminal/pty-backend.js'
import { assembleEvidence } from './assemble-evidence.js'
import { cleanUpRun } from './clean-up-run.js'
import { FilesystemCheckpoints } from './filesystem-checkpoints.js'
import { launchCommand } from './launch.js'
import { createObservers, observedTerminal } from './observers.js'
import { createScheduler, observeRun } from './observe-run.js'
import { ProgressReporter, type ProgressRecord } from './progress.js'
import { settleRun } from './settle-run.js'

export interface RunCaptureContext {
  readonly resolved: ResolvedScenario
  /** The capture's run token, in the child's environment from the launch on. */
  readonly runToken: string
  readonly backend: PtyBackend
  readonly signal: AbortSignal | undefined
  readonly onProgress: ((record: ProgressRecord) => void) | undefined
}

/**
 * Runs one capture through its phases, each in a module of its own — launch, observe (the running phase),
 * settle, clean up, assemble — and returns sealed Evidence. Cleanup runs on every path, including failures
 * inside REA, before anything is returned.
 */
export async function runCapture(context: RunCaptureContext): Promise<Evidence> {
  const { resolved, signal } = context
  const { scenario } = resolved
  const capturedAt = new Date().toISOString()
  const wallStartMs = performance.now()
  const progress = new ProgressReporter(context.onProgress, () => Math.floor(performance.now() - wallStartMs))
  progress.update('prepare')
  const commitments = buildCommitments(resolved)
  const files = new FilesystemCheckpoints(resolved, signal)
  await files.takeBefore()

  const launch = await launchCommand(resolved, context.runToken, context.backend, signal)
  const { root } = launch
  // Built while the child starts on the other core; the PTY backend delivers output only on a later tick.
  const observers = createObservers(resolved, launch.clock, () => root?.session)
  files.recordLaunch(observers.journal)
  const update = (): void => progress.update('running', counts())
  const sampler =
    root?.tree === undefined
      ? undefined
      : new ProcessSampler(root.tree, observers.journal, scenario.limits.process_samples, update)
  const scheduler =
    root === undefined ? undefined : createScheduler(resolved, launch, root, observers, update)
  const counts = () => ({
    frames: observers.frames.retainedCount,
    samples: sampler?.samples.length ?? 0,
    interactions: scheduler?.dispatchedCount ?? 0,
  })
  update()
  const observed = await observeRun(resolved, launch, observers, { scheduler, sampler }, signal, update)

  progress.update('settling', counts())
  const settled = await settleRun(scenario.settle_ms, observers, sampler, scheduler, files)

  progress.update('cleanup', counts())
  const cleaned = await cleanUpRun(launch, observers, settled.settlement)
  progress.finish(observed.ending.disposition, cleaned.states, counts())

  return assembleEvidence({
    resolved,
    ptyBackend: context.backend.name,
    commitments,
    capturedAt,
    durationMs: Math.round(performance.now() - wallStartMs),
    disposition: observed.ending.disposition,
    failure: observed.ending.failure,
    terminal: observedTerminal(observers),
    interactions: settled.interactions,
    filesystem: files.observation(),
    samples: sampler?.samples ?? [],
    processAccounting: sampler?.accounting,
    drain: observed.ending.exit?.drain ?? 'incomplete',
    exit: observed.exit,
    root: root === undefined ? null : { pid: root.session.pid, binding: cleaned.rootBinding },
    settlement: settled.settlement,
    owned: cleaned.owned,
    cleanupStates: cleaned.states,
    cleanupElapsedMs: cleaned.elapsedMs,
    nextSequence: observers.journal.nextSequence,
  })
}
