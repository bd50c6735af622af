import type { ExitRecord } from '../evidence/schema.js'
import { setLongTimeout } from '../internal/long-timer.js'
import type { MonotonicClock } from '../internal/monotonic-clock.js'
import type { StartIdentity } from '../process/identity.js'
import { deliverSignal, type SignalOutcome } from '../process/signal.js'
import type { PtyExit, PtySession } from '../terminal/pty-backend.js'
import type { SequenceClock } from '../evidence/sequence-clock.js'

export type FinalizationRecord = NonNullable<ExitRecord['finalization']>
type FinalizationSignal = FinalizationRecord['signals'][number]

/** After an undelivered SIGKILL REA stops waiting; after a delivered one it waits this long for the exit. */
export const EXIT_AFTER_KILL_MS = 2000

export interface FinalizationContext {
  readonly session: PtySession
  readonly clock: MonotonicClock
  readonly journal: SequenceClock
  readonly requestedMs: number
  /** The root's retained identity, or why it could not be established: then no signal is sent. */
  readonly identity: StartIdentity | { readonly unavailable: string }
  /** Resolves when the capture is cancelled; the SIGKILL then goes out at once. */
  readonly cancelled: Promise<void>
}

export interface FinalizationResult {
  readonly exit: PtyExit | undefined
  readonly record: FinalizationRecord
  readonly cancelled: boolean
}

/**
 * A deadline's grace period: SIGTERM to the root at once, then at most one SIGKILL when the interval ends or
 * the capture is cancelled, whichever comes first. Output, selected files and scenario events keep being
 * observed meanwhile. The SIGKILL is not sequenced after the SIGTERM's delivery result: each delivery is
 * independent, so a slow identity check never delays the kill.
 */
export async function runFinalization(context: FinalizationContext): Promise<FinalizationResult> {
  const { session, clock, journal } = context
  const startedAtMs = clock.preciseMs()
  const sinceStart = (): number => Math.max(0, Math.round(clock.preciseMs() - startedAtMs))
  const exitObserved: { atMs: number | null } = { atMs: null }
  void session.rootGone.then(() => (exitObserved.atMs ??= sinceStart()))

  const signals: FinalizationSignal[] = []
  const send = (signal: 'SIGTERM' | 'SIGKILL'): Promise<SignalOutcome> => {
    const position = journal.record()
    const sentAtMs = sinceStart()
    const identity = context.identity
    const outcome: Promise<SignalOutcome> =
      'unavailable' in identity
        ? Promise.resolve({ delivery: 'unverified', reason: `identity unavailable: ${identity.unavailable}` })
        : deliverSignal(identity, signal)
    return outcome.then((result) => {
      signals.push({ ...position, signal, sent_at_ms: sentAtMs, ...result })
      return result
    })
  }

  const terminate = send('SIGTERM')
  let stopInterval: (() => void) | undefined
  const ended = await Promise.race([
    session.exited.then((exit) => ({ kind: 'exit' as const, exit })),
    new Promise<{ kind: 'interval' }>((resolve) => {
      stopInterval = setLongTimeout(() => resolve({ kind: 'interval' }), context.requestedMs)
    }),
    context.cancelled.then(() => ({ kind: 'cancelled' as const })),
  ])
  stopInterval?.()

  let exit: PtyExit | undefined
  if (ended.kind === 'exit') {
    exit = ended.exit
  } else {
    const kill = await send('SIGKILL')
    // An undelivered SIGKILL leaves nothing to wait for: keep what was observed and release the run.
    const delivered = kill.delivery === 'signaled' || kill.delivery === 'gone'
    exit = delivered ? await withinMs(session.exited, EXIT_AFTER_KILL_MS) : undefined
  }
  await terminate
  return {
    exit,
    cancelled: ended.kind === 'cancelled',
    record: {
      requested_ms: context.requestedMs,
      elapsed_ms: exit === undefined ? null : (exitObserved.atMs ?? sinceStart()),
      // Only a code the PTY reported for an exit that was not caused by a signal; never inferred.
      exit_code: exit !== undefined && exit.signal === 0 ? exit.exitCode : null,
      signals: signals.sort((a, b) => a.sequence - b.sequence),
    },
  }
}

export function withinMs<T>(promise: Promise<T>, timeoutMs: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), timeoutMs)
    void promise.then((value) => {
      clearTimeout(timer)
      resolve(value)
    })
  })
}
