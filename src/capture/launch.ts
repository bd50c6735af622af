import type { CaptureCoverage } from '../coverage/capture-coverage.js'
import { createMonotonicClock, type MonotonicClock } from '../internal/monotonic-clock.js'
import { bindRootIdentity, type RootBinding } from '../process/bind-root.js'
import { readStartIdentity, type StartIdentity } from '../process/identity.js'
import { processInspector } from '../process/inspector.js'
import { OwnedTree } from '../process/owned-tree.js'
import { superviseCapture, type SupervisedCapture } from '../process/supervisor.js'
import { childEnvironment, type ResolvedScenario } from '../scenario/resolve.js'
import type { PtyBackend, PtySession, PtySpawnOptions } from '../terminal/pty-backend.js'
import type { CaptureStatus } from './live-status.js'
import type { ProgressRecord } from './progress.js'

/** What a capture was asked to run, as `captureProcess` hands it to the engine; the launch reads it. */
export interface CaptureRequest {
  readonly resolved: ResolvedScenario
  /** The capture's run token, in the child's environment from the launch on. */
  readonly runToken: string
  /** The capture's own coverage folder, when coverage is collected through REA. */
  readonly coverage: CaptureCoverage | undefined
  readonly backend: PtyBackend
  readonly signal: AbortSignal | undefined
  readonly onProgress: ((record: ProgressRecord) => void) | undefined
  readonly onStatus: ((status: CaptureStatus) => void) | undefined
}

/** The root as far as signals are concerned: its retained identity once bound, or why there is none. */
export interface Root {
  readonly session: PtySession
  /** Read right after the fork; a start identity survives exec. Used for the immediate terminal kill. */
  readonly spawnIdentity: StartIdentity | undefined
  readonly binding: Promise<RootBinding>
  /** What the capture owns; undefined where REA cannot inspect processes. */
  readonly tree: OwnedTree | undefined
}

/** What the launch phase leaves: the clock every time counts from, and the root or why there is none. */
export interface Launch {
  /** Its origin is the launch: every at_ms and every deadline counts from here. */
  readonly clock: MonotonicClock
  readonly root: Root | undefined
  /** Set when the command could not be started. */
  readonly failure: string | undefined
  /** Cancelled before the launch: nothing was started. */
  readonly cancelled: boolean
  /** The supervisor's hold on this capture's token, released after cleanup; undefined when unsupervised. */
  readonly supervised: SupervisedCapture | undefined
}

/**
 * The launch phase: registers a fresh run token with the supervisor (so that if REA itself dies from here on,
 * what the command started is still found and killed), spawns the command in its PTY with the token in its
 * environment, reads the root's start identity right after the fork and starts binding it to the token.
 */
export async function launchCommand(request: CaptureRequest): Promise<Launch> {
  const { resolved, runToken: token, backend, signal } = request
  const inspector = processInspector()
  const ticksBeforeLaunch = inspector?.uptimeTicks() ?? 0
  // The first capture of a process starts the supervisor.
  const supervised = signal?.aborted === true ? undefined : await superviseCapture(token, ticksBeforeLaunch)
  // Cancelled before the launch (say, a signal while REA was loading): nothing is started, and the Evidence
  // records a cancelled run without a root.
  const cancelled = signal?.aborted === true
  const clock = createMonotonicClock()
  if (cancelled) {
    return { clock, root: undefined, failure: undefined, cancelled, supervised }
  }
  try {
    // Read right before the spawn: when the count then grows by just the spawn's own tasks, the root is the only
    // process started since, and the first observation need not list the host (see OwnedTree).
    const forksBeforeLaunch = inspector?.forkCount?.()
    const session = backend.spawn(spawnOptions(resolved, token, request.coverage?.environment))
    const identity = readStartIdentity(session.pid)
    const spawnIdentity = identity.status === 'ok' ? identity.value.identity : undefined
    if (spawnIdentity !== undefined) {
      supervised?.root(spawnIdentity)
    }
    const tree =
      inspector === undefined
        ? undefined
        : new OwnedTree(
            token,
            {
              pid: session.pid,
              identity: spawnIdentity,
              startTicks: spawnIdentity?.start_ticks ?? ticksBeforeLaunch,
              ...(forksBeforeLaunch === undefined ? {} : { forksBeforeLaunch }),
              ...(session.tasksCreated === undefined ? {} : { spawnTasks: session.tasksCreated }),
            },
            inspector,
          )
    const root = { session, spawnIdentity, binding: bindRootIdentity(session.pid, token), tree }
    return { clock, root, failure: undefined, cancelled, supervised }
  } catch (error) {
    return {
      clock,
      root: undefined,
      failure: `the command could not be started: ${describeFailure(error)}`,
      cancelled,
      supervised,
    }
  }
}

/**
 * What the PTY backend starts for a resolved scenario: its command, folder, size and the child's environment
 * (with `observation`, what REA sets to collect coverage).
 */
export function spawnOptions(
  resolved: ResolvedScenario,
  token: string,
  observation?: Readonly<Record<string, string>>,
): PtySpawnOptions {
  const { scenario } = resolved
  return {
    file: scenario.executable,
    executablePath: resolved.executablePath,
    args: scenario.arguments,
    cwd: resolved.workingDirectory,
    env: childEnvironment(resolved, token, observation),
    columns: scenario.terminal.columns,
    rows: scenario.terminal.rows,
    terminalType: resolved.terminalType,
  }
}

/** The root's identity for signals once bound, or why there is none. */
export function retainedIdentity(root: Root): Promise<StartIdentity | { readonly unavailable: string }> {
  return root.binding.then((binding) =>
    binding.binding === 'bound' ? binding.identity : { unavailable: bindingProblem(binding) },
  )
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

export function describeFailure(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}
