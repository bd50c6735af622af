import { monotonicNow } from './monotonic-clock.js'

/** Node's timers hold at most 2³¹−1 ms; a longer delay fires after 1 ms with a TimeoutOverflowWarning. */
export const MAX_TIMER_MS = 2 ** 31 - 1

/** Calls `callback` after `delayMs` (up to Number.MAX_SAFE_INTEGER), chaining timers past Node's limit. */
export function setLongTimeout(callback: () => void, delayMs: number): () => void {
  const dueAt = monotonicNow() + delayMs
  let timer: NodeJS.Timeout | undefined
  const arm = (): void => {
    const remaining = dueAt - monotonicNow()
    if (remaining <= 0) {
      timer = undefined
      callback()
      return
    }
    timer = setTimeout(arm, Math.min(remaining, MAX_TIMER_MS))
  }
  timer = setTimeout(arm, Math.min(Math.max(delayMs, 0), MAX_TIMER_MS))
  return () => {
    if (timer !== undefined) {
      clearTimeout(timer)
      timer = undefined
    }
  }
}
