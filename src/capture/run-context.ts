import { ProcessSampler } from '../process/sampler.js'
import type { FrameRecorder } from '../terminal/frame-recorder.js'
import type { FilesystemCheckpoints } from './filesystem-checkpoints.js'
import { retainedIdentity, type CaptureRequest, type Launch } from './launch.js'
import { createObservers, type Observers } from './observers.js'
import { OutputWatch } from './output-watch.js'
import type { ProgressCounts, ProgressReporter } from './progress.js'
import { EventScheduler } from './scheduler.js'
import { InputExchange } from './input-exchange.js'
import { foregroundReadBytes, foregroundRunning } from '../process/foreground.js'

/**
 * One capture once its command was launched: built once, in an order where each part is given what it needs,
 * and read by every later phase (observe, settle, clean up).
 */
export interface RunContext extends CaptureRequest {
  readonly launch: Launch
  readonly observers: Observers
  /** Samples the owned process tree; undefined where REA cannot inspect processes or nothing started. */
  readonly sampler: ProcessSampler | undefined
  /** Dispatches the scenario's events; undefined when the command did not start. */
  readonly scheduler: EventScheduler | undefined
  readonly files: FilesystemCheckpoints
  readonly progress: RunningProgress
}

/**
 * What the run has collected, for progress records: frames are read off their recorder, samples and
 * interactions are told by the sampler and the scheduler as they record them.
 */
export class RunningProgress {
  readonly #reporter: ProgressReporter
  readonly #frames: FrameRecorder
  #samples = 0
  #interactions = 0

  constructor(reporter: ProgressReporter, frames: FrameRecorder) {
    this.#reporter = reporter
    this.#frames = frames
  }

  counts(): ProgressCounts {
    return { frames: this.#frames.retainedCount, samples: this.#samples, interactions: this.#interactions }
  }

  /** Something was recorded while the command runs (or settles): a progress record may be due. */
  readonly update = (): void => this.#reporter.update('running', this.counts())

  readonly sampled = (count: number): void => {
    this.#samples = count
    this.update()
  }

  readonly interacted = (count: number): void => {
    this.#interactions = count
    this.update()
  }
}

/** Builds the run context right after the launch: observers, progress, then the sampler and the scheduler. */
export function createRunContext(
  request: CaptureRequest,
  launch: Launch,
  files: FilesystemCheckpoints,
  reporter: ProgressReporter,
): RunContext {
  const { resolved } = request
  const { root } = launch
  const output = new OutputWatch(launch.clock)
  // Built while the child starts on the other core; node-pty delivers output only on a later tick.
  const observers = createObservers(resolved, launch.clock, root?.session, output)
  const progress = new RunningProgress(reporter, observers.frames)
  const sampler =
    root?.tree === undefined
      ? undefined
      : new ProcessSampler(
          root.tree,
          observers.journal,
          resolved.scenario.limits.process_samples,
          progress.sampled,
        )
  let scheduler: EventScheduler | undefined
  if (root !== undefined) {
    // Events go to the root's PTY; a root seen gone skips later events.
    let rootGone = false
    void root.session.rootGone.then(() => (rootGone = true))
    const replies = observers.replies ?? []
    const exchange = new InputExchange({
      clock: launch.clock,
      session: root.session,
      live: observers.live,
      replies: () => ({ count: replies.length, lastAtMs: replies.at(-1)?.at_ms ?? 0 }),
      lastOutputMs: () => output.lastOutputMs,
      programRunning: () => foregroundRunning(root.session.pid),
      programReadBytes: () => foregroundReadBytes(root.session.pid),
      over: () => rootGone || scheduler?.finished === true,
    })
    scheduler = new EventScheduler({
      events: resolved.scenario.events,
      clock: launch.clock,
      journal: observers.journal,
      frames: observers.frames,
      renderer: observers.renderer,
      live: observers.live,
      session: root.session,
      rootIdentity: () => retainedIdentity(root),
      rootExited: () => rootGone,
      output,
      exchange,
      dispatch: resolved.scenario.event_dispatch,
      onInteraction: progress.interacted,
    })
  }
  return { ...request, launch, observers, sampler, scheduler, files, progress }
}
