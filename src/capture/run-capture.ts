import type { Evidence, ExitRecord } from '../evidence/schema.js'
import { createMonotonicClock, type MonotonicClock } from '../internal/monotonic-clock.js'
import { createChunkNormalizer } from '../normalize/normalize-chunk.js'
import { bindRootIdentity, type RootBinding } from '../process/bind-root.js'
import { cleanUpOwnedProcesses } from '../process/cleanup.js'
import { readStartIdentity, type StartIdentity } from '../process/identity.js'
import { RUN_TOKEN_VARIABLE, createRunToken } from '../process/run-token.js'
import { awaitSettlement } from '../process/settle.js'
import { sendCheckedSignal, type SignalOutcome } from '../process/signal.js'
import { buildCommitments } from '../scenario/commitment.js'
import type { ResolvedScenario } from '../scenario/resolve.js'
import type { ProcessScenario } from '../scenario/schema.js'
import { FrameRecorder } from '../terminal/frame-recorder.js'
import { OutputRecorder } from '../terminal/output-recorder.js'
import type { PtyBackend, PtyExit, PtySession } from '../terminal/pty-backend.js'
import { Renderer } from '../terminal/renderer.js'
import { assembleEvidence } from './assemble-evidence.js'
import { Deadlines } from './deadlines.js'
import { Journal } from './journal.js'
import { ProgressReporter, type CaptureDisposition, type ProgressRecord } from './progress.js'
import { watchForQuiet } from './quiet-frames.js'

export interface RunCaptureContext {
  readonly scenario: ProcessScenario
  readonly resolved: ResolvedScenario
  readonly backend: PtyBackend
  readonly signal: AbortSignal | undefined
  readonly onProgress: ((record: ProgressRecord) => void) | undefined
}

/** After the terminal kill, how long REA waits for the PTY to report the exit before moving on. */
const EXIT_AFTER_KILL_MS = 2000

/** How the running phase ended and what was observed of the exit. */
interface RunEnding {
  readonly disposition: CaptureDisposition
  readonly exit: PtyExit | undefined
  readonly kill: SignalOutcome | undefined
  readonly failure: string | undefined
}

/** What records the run: one journal and the terminal observers, which share it. */
interface Observers {
  readonly journal: Journal
  readonly renderer: Renderer
  readonly recorder: OutputRecorder
  readonly frames: FrameRecorder
}

/**
 * Runs one capture through prepare → running → settling → cleanup and returns sealed Evidence. Cleanup runs on
 * every path, including failures inside REA, before anything is returned.
 */
export async function runCapture(context: RunCaptureContext): Promise<Evidence> {
  const { scenario, resolved } = context
  const capturedAt = new Date().toISOString()
  const wallStartMs = performance.now()
  const progress = new ProgressReporter(context.onProgress, () => Math.floor(performance.now() - wallStartMs))
  progress.update('prepare')
  const token = createRunToken()
  const commitments = buildCommitments(scenario, resolved)
  const terminalType = commitments.comparison_contract.value.terminal_type

  // The clock's origin is the launch: every at_ms and every deadline counts from here.
  const clock = createMonotonicClock()
  let session: PtySession | undefined
  let launchFailure: string | undefined
  try {
    session = context.backend.spawn({
      file: scenario.executable,
      args: scenario.arguments,
      cwd: resolved.workingDirectory,
      env: { ...resolved.environment, TERM: terminalType, [RUN_TOKEN_VARIABLE]: token },
      columns: scenario.terminal.columns,
      rows: scenario.terminal.rows,
      terminalType,
    })
  } catch (error) {
    launchFailure = `the command could not be started: ${describeFailure(error)}`
  }
  // Read right after the fork: a start identity survives exec, so it names the root even before binding.
  const spawnIdentity = session === undefined ? undefined : identityOf(session.pid)
  const binding = session === undefined ? undefined : bindRootIdentity(session.pid, token)
  // Built while the child starts on the other core; node-pty delivers output only on a later tick.
  const observers = createObservers(scenario, clock, () => session)
  const { journal, renderer, recorder, frames } = observers
  const counts = () => ({ frames: frames.retainedCount, samples: 0, interactions: 0 })
  progress.update('running', counts())

  let ending: RunEnding
  if (session === undefined) {
    ending = { disposition: 'failed', exit: undefined, kill: undefined, failure: launchFailure }
  } else {
    ending = await observeRun(context, session, observers, clock, spawnIdentity, () =>
      progress.update('running', counts()),
    )
  }
  const exitPosition = journal.record()

  progress.update('settling', counts())
  const settlement = await awaitSettlement(token, scenario.settle_ms)
  if (session !== undefined) {
    await frames.record({ trigger: 'final' })
  }

  progress.update('cleanup', counts())
  const cleanupStartMs = performance.now()
  const owned = await cleanUpOwnedProcesses(token, settlement.lastScan)
  const rootBinding: RootBinding | undefined = binding === undefined ? undefined : await binding
  renderer.dispose()
  session?.dispose()
  const cleanupStates = {
    owned_processes: owned.status,
    renderer: 'disposed',
    temporary_root: 'not_created',
  } as const
  progress.finish(ending.disposition, cleanupStates, counts())

  const exit: ExitRecord = exitRecord(ending, exitPosition.sequence, exitPosition.at_ms)
  return assembleEvidence({
    scenario,
    resolved,
    commitments,
    capturedAt,
    durationMs: Math.round(performance.now() - wallStartMs),
    disposition: ending.disposition,
    failure: ending.failure,
    recorder,
    frames,
    drain: ending.exit?.drain ?? 'incomplete',
    exit,
    root: session === undefined ? null : { pid: session.pid, binding: rootBinding },
    settlement,
    owned,
    cleanupStates,
    cleanupElapsedMs: Math.round(performance.now() - cleanupStartMs),
    nextSequence: journal.nextSequence,
  })
}

function createObservers(
  scenario: ProcessScenario,
  clock: MonotonicClock,
  session: () => PtySession | undefined,
): Observers {
  const journal = new Journal(clock)
  const renderer = new Renderer(scenario.terminal, {
    pause: () => session()?.pause(),
    resume: () => session()?.resume(),
  })
  const recorder: OutputRecorder = new OutputRecorder({
    budgetBytes: scenario.limits.output_bytes,
    journal,
    normalize: createChunkNormalizer(scenario.normalization),
    onRetained: (chunk) => {
      // Past a gap the renderer would show a screen the program never showed.
      if (!recorder.hasGap) {
        renderer.enqueue(chunk.data)
      }
    },
    // From the first omitted chunk on no frame is rendered, so what waits for the renderer is never needed.
    onGap: () => renderer.discardQueued(),
  })
  const frames = new FrameRecorder(renderer, journal, scenario.limits.rendered_bytes, () => recorder.hasGap)
  return { journal, renderer, recorder, frames }
}

/** The running phase: record output until the root exits or a deadline or cancellation ends the run. */
async function observeRun(
  context: RunCaptureContext,
  session: PtySession,
  observers: Observers,
  clock: MonotonicClock,
  identity: StartIdentity | undefined,
  onQuietFrame: () => void,
): Promise<RunEnding> {
  const { scenario } = context
  const deadlines = new Deadlines({
    timeoutMs: scenario.timeout_ms,
    idleTimeoutMs: scenario.idle_timeout_ms,
    signal: context.signal,
    elapsedMs: clock.preciseMs(),
  })
  const quiet = watchForQuiet(observers.frames, () => observers.recorder.hasGap, onQuietFrame)
  const unsubscribe = session.onData((bytes) => {
    observers.recorder.push(bytes)
    deadlines.noteOutput()
    quiet.noteOutput()
  })
  try {
    const first = await Promise.race([
      session.exited.then((exit) => ({ kind: 'exit' as const, exit })),
      deadlines.stopped.then((reason) => ({ kind: 'stop' as const, reason })),
    ])
    if (first.kind === 'exit') {
      return { disposition: 'exited', exit: first.exit, kill: undefined, failure: undefined }
    }
    const kill: SignalOutcome =
      identity === undefined
        ? { delivery: 'unverified', reason: 'root identity unavailable' }
        : sendCheckedSignal(identity, 'SIGKILL')
    const delivered = kill.delivery === 'signaled' || kill.delivery === 'gone'
    const exit = await withinMs(session.exited, delivered ? EXIT_AFTER_KILL_MS : 0)
    return { disposition: first.reason, exit, kill, failure: undefined }
  } catch (error) {
    const kill = identity === undefined ? undefined : sendCheckedSignal(identity, 'SIGKILL')
    return { disposition: 'failed', exit: undefined, kill, failure: describeFailure(error) }
  } finally {
    quiet.dispose()
    deadlines.dispose()
    unsubscribe()
    observers.recorder.end()
  }
}

function exitRecord(ending: RunEnding, sequence: number, atMs: number): ExitRecord {
  const reason = ending.disposition
  const exit = ending.exit
  if (exit === undefined) {
    return { sequence, at_ms: atMs, code: null, signal: null, reason }
  }
  // node-pty reports exitCode 0 for a signalled exit, so the signal decides; every deadline exit has no code.
  const code = reason !== 'exited' || exit.signal !== 0 ? null : exit.exitCode
  return { sequence, at_ms: atMs, code, signal: exit.signal, reason }
}

function identityOf(pid: number): StartIdentity | undefined {
  const identity = readStartIdentity(pid)
  return identity.status === 'ok' ? identity.value.identity : undefined
}

function withinMs<T>(promise: Promise<T>, timeoutMs: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), timeoutMs)
    void promise.then((value) => {
      clearTimeout(timer)
      resolve(value)
    })
  })
}

function describeFailure(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}
