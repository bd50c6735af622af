import { setLongTimeout } from '../internal/long-timer.js'
import type { MonotonicClock } from '../internal/monotonic-clock.js'
import {
  compileWaitRegex,
  conditionOf,
  SCREEN_CONDITIONS,
  type WaitConditionKind,
} from '../scenario/wait-condition.js'
import type { WaitCondition } from '../scenario/schema.js'
import { WAIT_SETTLE_LIMIT_MS, WAIT_SETTLE_MS } from '../scenario/event-dispatch.js'
import type { WaitSettle } from '../evidence/input-waits.js'

/** An output wait sees at most this much of the normalized text since the previous event (the latest part). */
export const WAIT_OUTPUT_WINDOW_CHARACTERS = 256 * 1024

/** The live screen as a wait reads it. */
export interface WaitScreen {
  /** Why the live terminal stopped following the output, once it has; its screen then no longer changes. */
  readonly stopped: string | undefined
  /** The visible rows as drawn, joined by newlines, or undefined before the terminal has parsed anything. */
  screenText(): string | undefined
  /** A mark in the output fed so far. */
  outputMark(): number
  /** Whether the screen already shows output that came after `mark`. */
  showsOutputAfter(mark: number): boolean
  /** Calls `listener` after each piece of output is parsed, and when the terminal stops; returns a disposer. */
  onChange(listener: () => void): () => void
}

export interface WaitSources {
  readonly clock: MonotonicClock
  /**
   * Whether a wait without `quiet_ms` settles (the settled-v1 dispatch model); false under the legacy model, where
   * it is met at its match. Default true.
   */
  readonly settles?: boolean
  readonly screen: WaitScreen | undefined
  /** When output last arrived, on the capture clock (for quiet_ms). */
  readonly lastOutputMs: () => number
}

export type WaitEnd =
  | { readonly met: true; readonly metAtMs: number; readonly settle?: WaitSettle }
  | { readonly met: false; readonly detail: string | undefined }

/**
 * One event's wait for what the program shows: the condition of its `after` (output or screen, literal or
 * regex, or text gone from the screen), then silence, all within `within_ms` of the wait's start. The silence is
 * `quiet_ms` when given (0: none), else the default settle: WAIT_SETTLE_MS of quiet output, but at most
 * WAIT_SETTLE_LIMIT_MS after the match (a spinner never goes quiet), and `within_ms` no longer ends a wait whose
 * condition was met. `after` with `quiet_ms` alone waits only for the silence, counted from the later of the
 * wait's start and the last output: what the program drew before the previous event counts as drawn.
 * A screen condition is tested only on a screen that shows output written after the wait began (after the
 * previous event went in, or after launch): the screen that event is about to replace cannot meet it. Ends
 * exactly once through `onEnd`; a wait on the screen also ends when the live terminal stops, since the screen
 * can no longer show it.
 */
export class EventWait {
  readonly #sources: WaitSources
  readonly #after: WaitCondition
  readonly #onEnd: (end: WaitEnd) => void
  /** Undefined for a wait for quiet alone. */
  readonly #kind: WaitConditionKind | undefined
  readonly #test: (text: string, from: number) => boolean
  /**
   * How much of the window to keep after a chunk without a match: a literal needs only its length less one (a
   * later match must end in new text), a regex the whole window. Keeping less spares copying the window for
   * every chunk of a long output.
   */
  readonly #keep: number
  readonly #disposers: (() => void)[] = []
  #window = ''
  /** Where the output stood when the wait began; a screen condition needs output past it. */
  #screenMark = 0
  #metAtMs: number | undefined
  #quietTimer: (() => void) | undefined
  /** The silence counts from no earlier than this (the wait's start, for a wait for quiet alone). */
  readonly #quietFloorMs: number
  #ended = false

  constructor(after: WaitCondition, sources: WaitSources, onEnd: (end: WaitEnd) => void) {
    this.#after = after
    this.#sources = sources
    this.#onEnd = onEnd
    const condition = conditionOf(after)
    if (condition === null && after.quiet_ms === undefined) {
      throw new Error('a wait needs one condition or quiet_ms: the scenario was not validated')
    }
    this.#kind = condition?.kind
    this.#test = condition === null ? () => false : matcherFor(condition.kind, condition.text)
    this.#keep = condition?.kind === 'output' ? condition.text.length - 1 : WAIT_OUTPUT_WINDOW_CHARACTERS
    this.#quietFloorMs = condition === null ? sources.clock.nowMs() : 0
    if (after.within_ms !== undefined) {
      this.#disposers.push(setLongTimeout(() => this.#withinEnded(), after.within_ms))
    }
    if (condition === null) {
      this.#matched()
      return
    }
    if (SCREEN_CONDITIONS.includes(condition.kind)) {
      const screen = sources.screen
      if (screen === undefined) {
        throw new Error('a screen wait needs the live terminal')
      }
      this.#screenMark = screen.outputMark()
      this.#disposers.push(screen.onChange(() => this.#checkScreen(screen)))
      this.#checkScreen(screen)
    }
  }

  /** New normalized output: an output condition looks at it; quiet_ms starts over. */
  noteOutput(text: string): void {
    if (this.#ended) {
      return
    }
    if (this.#metAtMs !== undefined) {
      this.#armQuiet()
      return
    }
    if (this.#kind !== 'output' && this.#kind !== 'output_regex') {
      return
    }
    const before = this.#window.length
    this.#window += text
    let from = before
    if (this.#window.length > WAIT_OUTPUT_WINDOW_CHARACTERS) {
      const cut = this.#window.length - WAIT_OUTPUT_WINDOW_CHARACTERS
      this.#window = this.#window.slice(cut)
      from = Math.max(0, before - cut)
    }
    if (this.#test(this.#window, from)) {
      this.#matched()
    } else if (this.#window.length > this.#keep) {
      this.#window = this.#keep === 0 ? '' : this.#window.slice(-this.#keep)
    }
  }

  dispose(): void {
    this.#ended = true
    this.#quietTimer?.()
    for (const dispose of this.#disposers.splice(0)) {
      dispose()
    }
  }

  #checkScreen(screen: WaitScreen): void {
    if (this.#ended || this.#metAtMs !== undefined) {
      return
    }
    const text = screen.showsOutputAfter(this.#screenMark) ? screen.screenText() : undefined
    if (text !== undefined && this.#test(text, 0)) {
      this.#matched()
    } else if (screen.stopped !== undefined) {
      this.#end({ met: false, detail: `the screen can no longer be watched: ${screen.stopped}` })
    }
  }

  /** Whether the silence after the match is the default settle (no `quiet_ms` given). */
  get #settles(): boolean {
    return this.#after.quiet_ms === undefined && this.#sources.settles !== false
  }

  #matched(): void {
    const metAtMs = this.#sources.clock.nowMs()
    this.#metAtMs = metAtMs
    if (this.#after.quiet_ms === 0 || (this.#after.quiet_ms === undefined && !this.#settles)) {
      this.#end({ met: true, metAtMs })
      return
    }
    if (this.#settles) {
      this.#disposers.push(
        setLongTimeout(
          () => this.#end({ met: true, metAtMs, settle: 'limit_reached' }),
          WAIT_SETTLE_LIMIT_MS,
        ),
      )
    }
    this.#armQuiet()
  }

  /** `within_ms` ran out: the wait failed, unless its condition was met and it only settles now. */
  #withinEnded(): void {
    if (this.#metAtMs === undefined || !this.#settles) {
      this.#end({ met: false, detail: undefined })
    }
  }

  /**
   * Fires once the output has been quiet long enough since its last arrival (quiet_ms, or the default settle).
   * A wait for quiet alone is met when that silence ends; a condition was met when it matched.
   */
  #armQuiet(): void {
    this.#quietTimer?.()
    const quietMs = this.#after.quiet_ms ?? WAIT_SETTLE_MS
    const quietFromMs = Math.max(this.#quietFloorMs, this.#sources.lastOutputMs())
    const elapsed = this.#sources.clock.nowMs() - quietFromMs
    this.#quietTimer = setLongTimeout(
      () => {
        const metAtMs = this.#kind === undefined ? this.#sources.clock.nowMs() : this.#metAtMs
        if (metAtMs !== undefined) {
          this.#end({ met: true, metAtMs, ...(this.#settles ? { settle: 'quiet' as const } : {}) })
        }
      },
      Math.max(0, quietMs - elapsed),
    )
  }

  #end(end: WaitEnd): void {
    if (this.#ended) {
      return
    }
    this.dispose()
    this.#onEnd(end)
  }
}

/**
 * How a condition tests text. A literal searches only from where new text could complete a match (`from`, less
 * the literal's length), so a long window is not scanned again for every chunk; a regex tests the window.
 */
function matcherFor(kind: WaitConditionKind, text: string): (subject: string, from: number) => boolean {
  if (kind === 'output' || kind === 'screen') {
    return (subject, from) => subject.includes(text, Math.max(0, from - text.length + 1))
  }
  if (kind === 'gone') {
    return (subject) => !subject.includes(text)
  }
  const compiled = compileWaitRegex(text)
  if ('error' in compiled) {
    throw new Error(`invalid wait regex: the scenario was not validated (${compiled.error})`)
  }
  return (subject) => compiled.regex.test(subject)
}
