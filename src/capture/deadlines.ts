import { setLongTimeout } from '../internal/long-timer.js'
import type { Disposer } from '../terminal/pty-backend.js'
import { monotonicNow } from '../internal/monotonic-clock.js'

/** Why REA, rather than the target, ended a run. */
export type StopReason = 'timeout' | 'idle_timeout' | 'cancelled'

export interface DeadlineOptions {
  readonly timeoutMs: number
  /** Null disables the idle deadline. */
  readonly idleTimeoutMs: number | null
  readonly signal: AbortSignal | undefined
  /** Time already elapsed since launch when the deadlines start, so they count from the launch. */
  readonly elapsedMs?: number
}

/**
 * The run's deadlines and its cancellation. `stopped` resolves with the first reason to end the run;
 * `noteOutput` restarts the idle interval (only PTY output counts: input and resizes do not).
 */
export class Deadlines {
  readonly stopped: Promise<StopReason>
  /** Resolves on cancellation even after a deadline fired, which is how finalization learns of it. */
  readonly cancelled: Promise<void>
  #resolveCancelled!: () => void
  readonly #disposers: Disposer[] = []
  readonly #idleTimeoutMs: number | null
  #resolve!: (reason: StopReason) => void
  #cancelIdle: Disposer | undefined
  #lastOutputAt = monotonicNow()
  #settled = false

  constructor(options: DeadlineOptions) {
    this.stopped = new Promise((resolve) => (this.#resolve = resolve))
    this.cancelled = new Promise((resolve) => (this.#resolveCancelled = resolve))
    this.#idleTimeoutMs = options.idleTimeoutMs
    this.#disposers.push(
      setLongTimeout(() => this.#stop('timeout'), options.timeoutMs - (options.elapsedMs ?? 0)),
    )
    this.#armIdle(this.#idleTimeoutMs)
    const signal = options.signal
    if (signal !== undefined) {
      const onAbort = (): void => {
        this.#resolveCancelled()
        this.#stop('cancelled')
      }
      if (signal.aborted) {
        onAbort()
      } else {
        signal.addEventListener('abort', onAbort, { once: true })
        this.#disposers.push(() => signal.removeEventListener('abort', onAbort))
      }
    }
  }

  /** Called for every PTY read, so it only notes the time; the one idle timer re-arms itself when it fires. */
  noteOutput(): void {
    this.#lastOutputAt = monotonicNow()
  }

  #armIdle(delayMs: number | null): void {
    if (delayMs === null || this.#idleTimeoutMs === null) {
      return
    }
    const idleTimeoutMs = this.#idleTimeoutMs
    this.#cancelIdle = setLongTimeout(() => {
      const quietForMs = monotonicNow() - this.#lastOutputAt
      if (quietForMs >= idleTimeoutMs) {
        this.#stop('idle_timeout')
      } else if (!this.#settled) {
        this.#armIdle(idleTimeoutMs - quietForMs)
      }
    }, delayMs)
  }

  dispose(): void {
    this.#settled = true
    this.#cancelIdle?.()
    for (const dispose of this.#disposers.splice(0).reverse()) {
      dispose()
    }
  }

  #stop(reason: StopReason): void {
    if (!this.#settled) {
      this.#settled = true
      this.#resolve(reason)
    }
  }
}
