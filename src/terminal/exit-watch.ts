import { readStartIdentity } from '../process/identity.js'
import type { Disposer } from './pty-backend.js'

/** How often REA looks for the root's exit; the PTY layer's own exit notice comes only after the drain. */
export const EXIT_POLL_MS = 2

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

/** Calls `onGone` once, as soon as a poll sees the process gone. */
export function watchProcessExit(pid: number, onGone: () => void): Disposer {
  const timer = setInterval(() => {
    if (isProcessGone(pid)) {
      clearInterval(timer)
      onGone()
    }
  }, EXIT_POLL_MS)
  return () => clearInterval(timer)
}
