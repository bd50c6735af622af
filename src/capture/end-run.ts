import type { ExitRecord } from '../evidence/schema.js'
import { deliverSignal, type SignalOutcome } from '../process/signal.js'
import type { PtyExit } from '../terminal/pty-backend.js'
import type { Deadlines, StopReason } from './deadlines.js'
import { EXIT_AFTER_KILL_MS, runFinalization, withinMs, type FinalizationRecord } from './finalization.js'
import { retainedIdentity, type Root } from './launch.js'
import type { CaptureDisposition } from './progress.js'
import type { RunContext } from './run-context.js'

/** How the running phase ended and what was observed of the exit. */
export interface RunEnding {
  readonly disposition: CaptureDisposition
  /** The deadline that ended the run, kept as `exit.reason` even when cancellation followed. */
  readonly reason: ExitRecord['reason']
  readonly exit: PtyExit | undefined
  readonly finalization: FinalizationRecord | undefined
  readonly failure: string | undefined
}

/** REA ends the run: at once for cancellation or without a finalization interval, else through finalization. */
export async function endRun(
  run: RunContext,
  root: Root,
  reason: StopReason,
  deadlines: Deadlines,
): Promise<RunEnding> {
  const finalizationMs = run.resolved.scenario.finalization_ms
  if (reason === 'cancelled' || finalizationMs === 0) {
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
    clock: run.launch.clock,
    journal: run.observers.journal,
    requestedMs: finalizationMs,
    identity: await retainedIdentity(root),
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

/** The exit record at its place in the journal. */
export function exitRecord(ending: RunEnding, sequence: number, atMs: number): ExitRecord {
  const { exit, reason } = ending
  const finalization = ending.finalization === undefined ? {} : { finalization: ending.finalization }
  if (exit === undefined) {
    return { sequence, at_ms: atMs, code: null, signal: null, reason, ...finalization }
  }
  // The PTY backend reports exitCode 0 for a signalled exit, so the signal decides; every deadline exit has no code.
  const code = reason !== 'exited' || exit.signal !== 0 ? null : exit.exitCode
  return { sequence, at_ms: atMs, code, signal: exit.signal, reason, ...finalization }
}
