import { setLongTimeout } from '../internal/long-timer.js'
import type { MonotonicClock } from '../internal/monotonic-clock.js'
import {
  compileWaitRegex,
  conditionOf,
  SCREEN_CONDITIONS,
  type WaitConditionKind,
} from '../scenario/wait-condition.js'
import type { WaitCondition } from '../scenario/schema.js'

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
  readonly screen: WaitScreen | undefined
  /** When output last arrived, on the capture clock (for quiet_ms). */
  readonly lastOutputMs: () => number
}

export type WaitEnd =
  | { readonly met: true; readonly metAtMs: number }
  | { readonly met: false; readonly detail: string | undefined }

/**
 * One event's wait for what the program shows: the condition of its `after` (output or screen, literal or
 * regex, or text gone from the screen), then `quiet_ms` of silence, all within `within_ms` of the wait's start.
 * A screen condition is tested only on a screen that shows output written after the wait began (after the
 * previous event went in, or after launch): the screen that event is about to replace cannot meet it. Ends
 * exactly once through `onEnd`; a wait on the screen also ends when the live terminal stops, since the screen
 * can no longer show it.
 */
export class EventWait {
  readonly #sources: WaitSources
  readonly #after: WaitCondition
  readonly #onEnd: (end: WaitEnd) => void
  readonly #kind: WaitConditionKind
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
  #ended = false

  constructor(after: WaitCondition, sources: WaitSources, onEnd: (end: WaitEnd) => void) {
    this.#after = after
    this.#sources = sources
    this.#onEnd = onEnd
    const condition = conditionOf(after)
    if (condition === null) {
      throw new Error('a wait needs exactly one condition: the scenario was not validated')
    }
    this.#kind = condition.kind
    this.#test = matcherFor(condition.kind, condition.text)
    this.#keep = condition.kind === 'output' ? condition.text.length - 1 : WAIT_OUTPUT_WINDOW_CHARACTERS
    if (after.within_ms !== undefined) {
      this.#disposers.push(
        setLongTimeout(() => this.#end({ met: false, detail: undefined }), after.within_ms),
      )
    }
    if (SCREEN_CONDITIONS.includes(this.#kind)) {
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

  #matched(): void {
    this.#metAtMs = this.#sources.clock.nowMs()
    if (this.#after.quiet_ms === undefined || this.#after.quiet_ms === 0) {
      this.#end({ met: true, metAtMs: this.#metAtMs })
      return
    }
    this.#armQuiet()
  }

  /** Fires once the output has been quiet for quiet_ms since its last arrival. */
  #armQuiet(): void {
    this.#quietTimer?.()
    const quietMs = this.#after.quiet_ms ?? 0
    const elapsed = this.#sources.clock.nowMs() - this.#sources.lastOutputMs()
    this.#quietTimer = setLongTimeout(
      () => {
        const metAtMs = this.#metAtMs
        if (metAtMs !== undefined) {
          this.#end({ met: true, metAtMs })
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
