import { readStartIdentity } from '../process/identity.js'
import type { Disposer } from './pty-backend.js'
import { createMonotonicClock } from '../internal/monotonic-clock.js'

/** Exit polling: fast at first, where short commands end, then slower so a long run costs little CPU. */
export const EXIT_POLL_FAST_MS = 2
export const EXIT_POLL_FAST_PERIOD_MS = 100
export const EXIT_POLL_SLOW_MS = 20
/**
 * The poll where the spawner reports each reaping at once: only a safety net then, for a report that never
 * came. Polling at the fast rate besides took CPU from a program flooding its output.
 */
export const EXIT_POLL_BACKSTOP_MS = 100

/** Whether the process is gone or a zombie; off Linux, the PID no longer answering signal 0. */
export function isProcessGone(pid: number): boolean {
  if (process.platform === 'linux') {
    return readStartIdentity(pid).status === 'gone'
  }
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ESRCH'
  }
}

export interface ExitWatch {
  /** Checks at once; for callers that learn of a likely exit early (a hint, never the proof). */
  checkNow(): void
  dispose: Disposer
}

/**
 * Calls `onGone` once, as soon as a check sees the process gone. `hinted`: the caller calls `checkNow` when the
 * spawner reports the process reaped, and that report is prompt, so the poll only backs it up.
 */
export function watchProcessExit(pid: number, onGone: () => void, hinted = false): ExitWatch {
  const clock = createMonotonicClock()
  let timer: NodeJS.Timeout | undefined
  let done = false
  const check = (): void => {
    if (done) {
      return
    }
    if (isProcessGone(pid)) {
      done = true
      clearTimeout(timer)
      onGone()
      return
    }
    clearTimeout(timer)
    timer = setTimeout(check, nextPollMs())
  }
  const nextPollMs = (): number =>
    hinted
      ? EXIT_POLL_BACKSTOP_MS
      : clock.preciseMs() < EXIT_POLL_FAST_PERIOD_MS
        ? EXIT_POLL_FAST_MS
        : EXIT_POLL_SLOW_MS
  timer = setTimeout(check, nextPollMs())
  return {
    checkNow: check,
    dispose: () => {
      done = true
      clearTimeout(timer)
    },
  }
}
