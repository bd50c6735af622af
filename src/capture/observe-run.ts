import type { ExitRecord } from '../evidence/schema.js'
import { skipEnding, type SkipEnding } from '../evidence/skip-cause.js'
import { deliverSignal } from '../process/signal.js'
import { Deadlines } from './deadlines.js'
import { endRun, exitRecord, type RunEnding } from './end-run.js'
import { describeFailure, type Root } from './launch.js'
import { watchForQuiet } from './quiet-frames.js'
import type { RunContext } from './run-context.js'
import type { EventScheduler } from './scheduler.js'
import type { LiveTerminal } from '../terminal/live-terminal.js'
import type { PtySession } from '../terminal/pty-backend.js'

/** What the running phase observed: how it ended, and the exit record at its place in the journal. */
export interface ObservedRun {
  readonly ending: RunEnding
  readonly exit: ExitRecord
}

/**
 * The running phase: record output, sample the process tree and dispatch events until the root exits or a
 * deadline or cancellation ends the run. A run whose command never started ends here at once.
 */
export async function observeRun(run: RunContext): Promise<ObservedRun> {
  const { launch, observers, sampler } = run
  const { root } = launch
  let ending: RunEnding
  if (root === undefined || run.scheduler === undefined) {
    ending = {
      disposition: launch.cancelled ? 'cancelled' : 'failed',
      reason: launch.cancelled ? 'cancelled' : 'failed',
      exit: undefined,
      finalization: undefined,
      failure: launch.failure,
    }
  } else {
    // The first sample waits for the root's exec, when its token and command name are visible.
    let running = true
    void root.binding.then(() => {
      if (running) {
        sampler?.start()
      }
    })
    ending = await untilTheRunEnds(run, root, run.scheduler)
    running = false
  }
  await sampler?.stop()
  const position = observers.journal.record()
  return { ending, exit: exitRecord(ending, position.sequence, position.at_ms) }
}

/**
 * A root still running this long after the launch gets its live terminal opened ahead of its first query: a
 * program needs longer than this to start and ask (a Node.js program about 40 ms, vim about 30 ms), and a root
 * that ends at once (`true`) does not pay for an emulator it never uses.
 */
export const LIVE_TERMINAL_PREPARE_DELAY_MS = 5

function prepareLiveTerminal(live: LiveTerminal | undefined, session: PtySession): () => void {
  if (live === undefined) {
    return () => undefined
  }
  let gone = false
  void session.rootGone.then(() => (gone = true))
  let cancel: (() => void) | undefined
  const timer = setTimeout(() => {
    if (!gone) {
      cancel = live.prepare()
    }
  }, LIVE_TERMINAL_PREPARE_DELAY_MS)
  return () => {
    clearTimeout(timer)
    cancel?.()
  }
}

/** The run from the first event on: `root` and `scheduler` are the run's, known to exist here. */
async function untilTheRunEnds(run: RunContext, root: Root, scheduler: EventScheduler): Promise<RunEnding> {
  const { launch, observers, signal } = run
  const { scenario } = run.resolved
  const { session } = root
  const deadlines = new Deadlines({
    timeoutMs: scenario.timeout_ms,
    idleTimeoutMs: scenario.idle_timeout_ms,
    signal,
    elapsedMs: launch.clock.preciseMs(),
  })
  const quiet = watchForQuiet(observers.frames, () => observers.recorder.hasGap, run.progress.update)
  const unprepare = prepareLiveTerminal(observers.live, session)
  const noteOutput = () => {
    deadlines.noteOutput()
    quiet.noteOutput()
    observers.heldOutput.noteOutput()
  }
  const unsubscribe = session.onData((bytes) => {
    observers.recorder.push(observers.redactor.push(bytes))
    noteOutput()
  })
  // Past the output budget a flood of plain text is counted, never copied into the event loop: the recorder
  // would omit it unread. Masking sensitive values needs every byte (their places are recorded), so not then.
  const uncount = session.countPlainOutput((byteLength) => {
    if (observers.redactor.active || !observers.recorder.countOmitted(byteLength)) {
      return false
    }
    noteOutput()
    return true
  })
  scheduler.start()
  // Who ends the run, for the events it ends before they were due: the target, unless REA steps in.
  let ending: SkipEnding = skipEnding('exited', scenario)
  try {
    const first = await Promise.race([
      session.exited.then((exit) => ({ kind: 'exit' as const, exit })),
      deadlines.stopped.then((reason) => ({ kind: 'stop' as const, reason })),
    ])
    if (first.kind === 'exit') {
      return {
        disposition: 'exited',
        reason: 'exited',
        exit: first.exit,
        finalization: undefined,
        failure: undefined,
      }
    }
    ending = skipEnding(first.reason, scenario)
    scheduler.noteEnding(ending)
    return await endRun(run, root, first.reason, deadlines)
  } catch (error) {
    ending = skipEnding('failed', scenario)
    if (root.spawnIdentity !== undefined) {
      await deliverSignal(root.spawnIdentity, 'SIGKILL')
    }
    return {
      disposition: 'failed',
      reason: 'failed',
      exit: undefined,
      finalization: undefined,
      failure: describeFailure(error),
    }
  } finally {
    scheduler.finish(ending)
    // Nothing answers the program any more: it has exited or is being ended.
    observers.live?.stop('the run ended')
    quiet.dispose()
    unprepare()
    observers.heldOutput.dispose()
    deadlines.dispose()
    uncount()
    unsubscribe()
    observers.recorder.push(observers.redactor.flush())
    observers.recorder.end()
  }
}
