import { setTimeout as delay } from 'node:timers/promises'
import type { MonotonicClock } from '../internal/monotonic-clock.js'
import type { LiveTerminal } from '../terminal/live-terminal.js'
import type { PtySession } from '../terminal/pty-backend.js'
import type { ExchangeOutcome } from '../evidence/input-waits.js'
import {
  EXCHANGE_LIMIT_MS,
  EXCHANGE_QUIET_MS,
  KEY_QUEUED_MS,
  UNREAD_POLL_MS,
} from '../scenario/event-dispatch.js'

/** What an input waited for before it was written, as the interaction records it. */
export interface ExchangeRecord {
  /** Replies REA had written that the program had not been seen to read. */
  readonly replies: number
  readonly held_ms: number
  readonly outcome: ExchangeOutcome
}

export interface ExchangeSources {
  readonly clock: MonotonicClock
  readonly session: PtySession
  /** Undefined when nothing is answered and nothing watches the screen. */
  readonly live: LiveTerminal | undefined
  /** How many replies REA has written to the PTY so far, and when the last one went (capture clock). */
  readonly replies: () => { readonly count: number; readonly lastAtMs: number }
  /** When output last arrived (capture clock). */
  readonly lastOutputMs: () => number
  /**
   * Whether the program in the terminal's foreground is running (still working on what it read); undefined
   * where REA cannot tell (see `foregroundRunning`).
   */
  readonly programRunning: () => boolean | undefined
  /** How many bytes the foreground program has read so far; undefined where REA cannot tell. */
  readonly programReadBytes: () => number | undefined
  /** True once the input can no longer matter: the root is gone or the run ended. */
  readonly over: () => boolean
}

type ReadOutcome = 'read_before' | 'read_now' | 'limit_reached' | 'unobservable'

/**
 * The terminal's side of typing: a program that asks its terminal something (where the cursor is, which keys it
 * has) reads the replies from the same input queue as what is typed. A person types after the terminal has
 * answered; input written while a reply is still on its way lands in the middle of it, and a program that exits
 * with replies unread leaves them to the tty, which echoes them on the screen (`^[P1+r…`). So before each input
 * goes in, every query the program wrote so far is answered (the live terminal has parsed everything read, and its
 * replies are queued ahead of the input), the program has read those replies (the input queue is empty) and is
 * no longer running on them (a starved program may take longer than any quiet time to react), and its output has
 * been quiet for EXCHANGE_QUIET_MS since, in case a reply made it ask more; at most EXCHANGE_LIMIT_MS. Replies
 * seen read once are not waited for again.
 */
export class InputExchange {
  readonly #sources: ExchangeSources
  /** Replies the program has been seen to read (or that a wait gave up on). */
  #covered = 0

  constructor(sources: ExchangeSources) {
    this.#sources = sources
  }

  /** Resolves when input may be written, with what it waited for; undefined when no reply was outstanding. */
  async settle(): Promise<ExchangeRecord | undefined> {
    const { clock } = this.#sources
    const startedMs = clock.preciseMs()
    const deadlineMs = startedMs + EXCHANGE_LIMIT_MS
    let replies = 0
    let outcome: ExchangeOutcome = 'read'
    while (!this.#sources.over()) {
      await this.#caughtUp()
      const written = this.#sources.replies()
      if (written.count <= this.#covered) {
        break
      }
      replies += written.count - this.#covered
      const read = await this.#untilRead(deadlineMs, true)
      this.#covered = written.count
      if (read === 'limit_reached') {
        outcome = read
        break
      }
      if (read === 'unobservable') {
        outcome = read
      }
      // Read at an unknown moment before REA looked: the quiet counts from the reply, else from now.
      const readMs = read === 'read_now' ? clock.nowMs() : written.lastAtMs
      if (!(await this.#untilQuiet(readMs, deadlineMs))) {
        outcome = 'limit_reached'
        break
      }
    }
    return replies === 0
      ? undefined
      : { replies, held_ms: Math.round(clock.preciseMs() - startedMs), outcome }
  }

  /** How many bytes the foreground program has read so far, to pass to `untilRead` after a write. */
  readBytes(): number | undefined {
    return this.#sources.programReadBytes()
  }

  /**
   * Waits until the program has read everything written to the terminal (at most until `deadlineMs` on the
   * capture clock); false when it had not by then. Without a view of the input queue, true at once. With
   * `readBefore` (its read count before the write), also until it has read more than that: right after a write
   * the kernel may not yet have moved the bytes into the input queue (a loaded machine delays that by more than a
   * key's gap), and an empty queue would then pass for a key already read.
   */
  async untilRead(deadlineMs: number, readBefore?: number): Promise<boolean> {
    const { clock } = this.#sources
    const writtenMs = clock.preciseMs()
    for (;;) {
      const read = await this.#untilRead(deadlineMs, false)
      if (read === 'limit_reached' || read === 'unobservable' || readBefore === undefined) {
        return read !== 'limit_reached'
      }
      const count = this.#sources.programReadBytes()
      // The reader may be another process of the foreground group than its leader (`sh -c '… | fzf'`): a queue
      // still empty KEY_QUEUED_MS after the write means the key was read there.
      if (count === undefined || count > readBefore || clock.preciseMs() - writtenMs >= KEY_QUEUED_MS) {
        return true
      }
      if (clock.preciseMs() >= deadlineMs || this.#sources.over()) {
        return false
      }
      await delay(UNREAD_POLL_MS)
    }
  }

  /** Everything the live terminal was fed is parsed: each query in it is answered, its reply queued. */
  async #caughtUp(): Promise<void> {
    const live = this.#sources.live
    if (live !== undefined && live.stopped === undefined && !live.idle) {
      await live.whenRendered(() => undefined)
    }
  }

  /** Until the input queue is empty, and with `reacted`, the program is no longer running on what it read. */
  async #untilRead(deadlineMs: number, reacted: boolean): Promise<ReadOutcome> {
    const { session, clock } = this.#sources
    let first = true
    for (;;) {
      const unread = session.unreadInput()
      if (unread === undefined) {
        return 'unobservable'
      }
      if (unread === 0 && (!reacted || this.#sources.programRunning() !== true)) {
        return first ? 'read_before' : 'read_now'
      }
      if (clock.preciseMs() >= deadlineMs || this.#sources.over()) {
        return 'limit_reached'
      }
      first = false
      await delay(UNREAD_POLL_MS)
    }
  }

  /** Waits until the output has been quiet for EXCHANGE_QUIET_MS since `fromMs`; false if the deadline comes first. */
  async #untilQuiet(fromMs: number, deadlineMs: number): Promise<boolean> {
    const { clock } = this.#sources
    for (;;) {
      const quietFromMs = Math.max(fromMs, this.#sources.lastOutputMs())
      const remainingMs = quietFromMs + EXCHANGE_QUIET_MS - clock.preciseMs()
      if (remainingMs <= 0 || this.#sources.over()) {
        return true
      }
      const leftMs = deadlineMs - clock.preciseMs()
      if (leftMs <= 0) {
        return false
      }
      await delay(Math.min(remainingMs, leftMs))
    }
  }
}
