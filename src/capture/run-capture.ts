import type { Evidence, ExitRecord, FilesystemCheckpoint } from '../evidence/schema.js'
import { createMonotonicClock, type MonotonicClock } from '../internal/monotonic-clock.js'
import { createChunkNormalizer } from '../normalize/normalize-chunk.js'
import { bindRootIdentity, type RootBinding } from '../process/bind-root.js'
import { cleanUpOwnedProcesses } from '../process/cleanup.js'
import { readStartIdentity, type StartIdentity } from '../process/identity.js'
import { createRunToken } from '../process/run-token.js'
import { RUN_TOKEN_VARIABLE } from '../scenario/reserved-environment.js'
import { OwnedTree } from '../process/owned-tree.js'
import { processInspector } from '../process/inspector.js'
import { ProcessSampler } from '../process/sampler.js'
import { awaitSettlement } from '../process/settle.js'
import { deliverSignal, type SignalOutcome } from '../process/signal.js'
import { buildCommitments } from '../evidence/commitments.js'
import type { ResolvedScenario } from '../scenario/resolve.js'
import type { ProcessScenario } from '../scenario/schema.js'
import { classifyEffects } from '../evidence/file-effects.js'
import { takeSnapshot, type FilesystemSnapshot } from '../filesystem/snapshot.js'
import { FrameRecorder } from '../terminal/frame-recorder.js'
import { OutputRecorder } from '../terminal/output-recorder.js'
import type { PtyBackend, PtyExit, PtySession } from '../terminal/pty-backend.js'
import { sensitiveValues } from '../normalize/sensitive-values.js'
import { SensitiveRedactor } from '../terminal/redact.js'
import { Renderer } from '../terminal/renderer.js'
import { assembleEvidence } from './assemble-evidence.js'
import { Deadlines, type StopReason } from './deadlines.js'
import { EXIT_AFTER_KILL_MS, runFinalization, withinMs, type FinalizationRecord } from './finalization.js'
import { SequenceClock } from '../evidence/sequence-clock.js'
import { ProgressReporter, type CaptureDisposition, type ProgressRecord } from './progress.js'
import { watchForQuiet } from './quiet-frames.js'
import { EventScheduler } from './scheduler.js'

export interface RunCaptureContext {
  readonly scenario: ProcessScenario
  readonly resolved: ResolvedScenario
  readonly backend: PtyBackend
  readonly signal: AbortSignal | undefined
  readonly onProgress: ((record: ProgressRecord) => void) | undefined
}

/** How the running phase ended and what was observed of the exit. */
interface RunEnding {
  readonly disposition: CaptureDisposition
  /** The deadline that ended the run, kept as `exit.reason` even when cancellation followed. */
  readonly reason: ExitRecord['reason']
  readonly exit: PtyExit | undefined
  readonly finalization: FinalizationRecord | undefined
  readonly failure: string | undefined
}

/** What records the run: one journal and the observers that share it. */
interface Observers {
  readonly journal: SequenceClock
  readonly renderer: Renderer
  readonly recorder: OutputRecorder
  readonly frames: FrameRecorder
  readonly redactor: SensitiveRedactor
}

/** The root as far as signals are concerned: its retained identity once bound, or why there is none. */
interface Root {
  readonly session: PtySession
  /** Read right after the fork; a start identity survives exec. Used for the immediate terminal kill. */
  readonly spawnIdentity: StartIdentity | undefined
  readonly binding: Promise<RootBinding>
  /** What the capture owns; undefined where REA cannot inspect processes. */
  readonly tree: OwnedTree | undefined
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
  const snapshotLimits = {
    fileCount: scenario.limits.file_count,
    depth: scenario.limits.filesystem_depth,
    fileBytes: scenario.limits.file_bytes,
  }
  const observesFiles = resolved.observationPaths.length > 0
  // The before_launch checkpoint: the selected paths as they stand before the command starts.
  const filesBefore = observesFiles
    ? await takeSnapshot(resolved.observationPaths, snapshotLimits, context.signal)
    : undefined
  const terminalType = commitments.comparison_contract.value.terminal_type

  // The clock's origin is the launch: every at_ms and every deadline counts from here.
  const clock = createMonotonicClock()
  const inspector = processInspector()
  const ticksBeforeLaunch = inspector?.uptimeTicks() ?? 0
  let root: Root | undefined
  let launchFailure: string | undefined
  try {
    const session = context.backend.spawn({
      file: scenario.executable,
      args: scenario.arguments,
      cwd: resolved.workingDirectory,
      env: { ...resolved.environment, TERM: terminalType, [RUN_TOKEN_VARIABLE]: token },
      columns: scenario.terminal.columns,
      rows: scenario.terminal.rows,
      terminalType,
    })
    const identity = readStartIdentity(session.pid)
    const spawnIdentity = identity.status === 'ok' ? identity.value.identity : undefined
    root = {
      session,
      spawnIdentity,
      binding: bindRootIdentity(session.pid, token),
      tree:
        inspector === undefined
          ? undefined
          : new OwnedTree(
              token,
              {
                pid: session.pid,
                identity: spawnIdentity,
                startTicks: spawnIdentity?.start_ticks ?? ticksBeforeLaunch,
              },
              inspector,
            ),
    }
  } catch (error) {
    launchFailure = `the command could not be started: ${describeFailure(error)}`
  }
  // Built while the child starts on the other core; node-pty delivers output only on a later tick.
  const observers = createObservers(scenario, clock, () => root?.session)
  const checkpoints: FilesystemCheckpoint[] = []
  if (filesBefore !== undefined) {
    // Taken before the launch, recorded first in the journal, at the launch instant.
    checkpoints.push({ ...observers.journal.record(), name: 'before_launch' })
  }
  const { journal, renderer, recorder, frames } = observers
  let scheduler: EventScheduler | undefined
  const counts = () => ({
    frames: frames.retainedCount,
    samples: sampler?.samples.length ?? 0,
    interactions: scheduler?.dispatchedCount ?? 0,
  })
  const tree = root?.tree
  const sampler =
    tree === undefined
      ? undefined
      : new ProcessSampler(tree, journal, scenario.limits.process_samples, () =>
          progress.update('running', counts()),
        )
  progress.update('running', counts())
  // The first sample waits for the root's exec, when its token and command name are visible.
  let running = true
  void root?.binding.then(() => {
    if (running) {
      sampler?.start()
    }
  })

  const ending: RunEnding =
    root === undefined
      ? {
          disposition: 'failed',
          reason: 'failed',
          exit: undefined,
          finalization: undefined,
          failure: launchFailure,
        }
      : await observeRun(
          context,
          root,
          observers,
          clock,
          (created) => (scheduler = created),
          () => progress.update('running', counts()),
        )
  running = false
  await sampler?.stop()
  const exitPosition = journal.record()

  progress.update('settling', counts())
  const settlement = await awaitSettlement(sampler, scenario.settle_ms)
  let filesAfter: FilesystemSnapshot | undefined
  if (filesBefore !== undefined) {
    checkpoints.push({ ...journal.record(), name: 'after_settlement' })
    filesAfter = await takeSnapshot(resolved.observationPaths, snapshotLimits, context.signal)
  }
  if (root !== undefined) {
    await frames.record({ trigger: 'final' })
  }
  const interactions = scheduler === undefined ? [] : await scheduler.interactions()

  progress.update('cleanup', counts())
  const cleanupStartMs = performance.now()
  const owned = await cleanUpOwnedProcesses(tree, settlement.lastObservation)
  const rootBinding = root === undefined ? undefined : await root.binding
  renderer.dispose()
  root?.session.dispose()
  const cleanupStates = {
    owned_processes: owned.status,
    renderer: 'disposed',
    temporary_root: 'not_created',
  } as const
  progress.finish(ending.disposition, cleanupStates, counts())

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
    redactor: observers.redactor,
    interactions,
    filesystem:
      filesBefore === undefined
        ? undefined
        : {
            before: filesBefore,
            after: filesAfter,
            checkpoints,
            effects: filesAfter === undefined ? [] : classifyEffects(filesBefore, filesAfter),
          },
    samples: sampler?.samples ?? [],
    processAccounting: sampler?.accounting,
    drain: ending.exit?.drain ?? 'incomplete',
    exit: exitRecord(ending, exitPosition.sequence, exitPosition.at_ms),
    root: root === undefined ? null : { pid: root.session.pid, binding: rootBinding },
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
  const journal = new SequenceClock(clock)
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
  return { journal, renderer, recorder, frames, redactor: new SensitiveRedactor(sensitiveValues(scenario)) }
}

/** The running phase: record output and dispatch events until the root exits or a deadline or cancellation ends it. */
async function observeRun(
  context: RunCaptureContext,
  root: Root,
  observers: Observers,
  clock: MonotonicClock,
  onScheduler: (scheduler: EventScheduler) => void,
  onProgress: () => void,
): Promise<RunEnding> {
  const { scenario } = context
  const { session } = root
  let rootGone = false
  void session.rootGone.then(() => (rootGone = true))
  const deadlines = new Deadlines({
    timeoutMs: scenario.timeout_ms,
    idleTimeoutMs: scenario.idle_timeout_ms,
    signal: context.signal,
    elapsedMs: clock.preciseMs(),
  })
  const quiet = watchForQuiet(observers.frames, () => observers.recorder.hasGap, onProgress)
  const unsubscribe = session.onData((bytes) => {
    observers.recorder.push(observers.redactor.push(bytes))
    deadlines.noteOutput()
    quiet.noteOutput()
  })
  const retainedIdentity = (): Promise<StartIdentity | { readonly unavailable: string }> =>
    root.binding.then((binding) =>
      binding.binding === 'bound' ? binding.identity : { unavailable: bindingProblem(binding) },
    )
  const scheduler = new EventScheduler({
    events: scenario.events,
    clock,
    journal: observers.journal,
    frames: observers.frames,
    renderer: observers.renderer,
    session,
    rootIdentity: retainedIdentity,
    rootExited: () => rootGone,
    onInteraction: onProgress,
  })
  onScheduler(scheduler)
  scheduler.start()
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
    return await endRun(first.reason, scenario, root, clock, observers, deadlines, retainedIdentity)
  } catch (error) {
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
    scheduler.finish()
    quiet.dispose()
    deadlines.dispose()
    unsubscribe()
    observers.recorder.push(observers.redactor.flush())
    observers.recorder.end()
  }
}

/** REA ends the run: at once for cancellation or without a finalization interval, else through finalization. */
async function endRun(
  reason: StopReason,
  scenario: ProcessScenario,
  root: Root,
  clock: MonotonicClock,
  observers: Observers,
  deadlines: Deadlines,
  retainedIdentity: () => Promise<StartIdentity | { readonly unavailable: string }>,
): Promise<RunEnding> {
  if (reason === 'cancelled' || scenario.finalization_ms === 0) {
    // The terminal kill is not delayed by binding: the identity read at the fork names the same process.
    const kill: SignalOutcome =
      root.spawnIdentity === undefined
        ? { delivery: 'unverified', reason: 'root identity unavailable' }
        : await deliverSignal(root.spawnIdentity, 'SIGKILL')
    const delivered = kill.delivery === 'signaled' || kill.delivery === 'gone'
    const exit = await withinMs(root.session.exited, delivered ? EXIT_AFTER_KILL_MS : 0)
    return { disposition: reason, reason, exit, finalization: undefined, failure: undefined }
  }
  const finalization = await runFinalization({
    session: root.session,
    clock,
    journal: observers.journal,
    requestedMs: scenario.finalization_ms,
    identity: await retainedIdentity(),
    cancelled: deadlines.cancelled,
  })
  return {
    disposition: finalization.cancelled ? 'cancelled' : reason,
    reason,
    exit: finalization.exit,
    finalization: finalization.record,
    failure: undefined,
  }
}

function exitRecord(ending: RunEnding, sequence: number, atMs: number): ExitRecord {
  const { exit, reason } = ending
  const finalization = ending.finalization === undefined ? {} : { finalization: ending.finalization }
  if (exit === undefined) {
    return { sequence, at_ms: atMs, code: null, signal: null, reason, ...finalization }
  }
  // node-pty reports exitCode 0 for a signalled exit, so the signal decides; every deadline exit has no code.
  const code = reason !== 'exited' || exit.signal !== 0 ? null : exit.exitCode
  return { sequence, at_ms: atMs, code, signal: exit.signal, reason, ...finalization }
}

function bindingProblem(binding: RootBinding): string {
  switch (binding.binding) {
    case 'bound':
      return 'bound'
    case 'exited_before_binding':
      return 'the root exited before its identity was bound'
    case 'unverified':
      return binding.reason
  }
}

function describeFailure(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}
