import type { CursorState } from '../screen/cursor-cells.js'
import type { LocalModes } from '../terminal/local-modes.js'

/** The screen as the person saw it at one moment: the visible rows as drawn, and the cursor. */
export interface ScreenSnapshot {
  readonly rows: readonly string[]
  /** The rows with the cells a program draws as a cursor of its own blanked: where typed text is judged. */
  readonly textRows: readonly string[]
  readonly cursor: CursorState
  /** The cursor's row left of the cursor: the prompt the program reads after. */
  readonly beforeCursor: string
}

/** The screen once the program had answered an action. */
export interface AnswerScreen {
  readonly screen: ScreenSnapshot
  /** Whether the program wrote anything between the action and this screen. */
  readonly drew: boolean
  /**
   * Whether the program had been quiet for `SETTLED_QUIET_MS` when the screen was read. A screen read at the next
   * key while the program was still writing may hold half a redraw (the cursor moved, the line not drawn yet).
   */
  readonly settled: boolean
}

/** What the recorder saw happen before one of the person's actions. */
interface ObservedBefore {
  /** Milliseconds since the launch. */
  readonly at_ms: number
  /** The screen just before the action, after everything the program wrote until then. */
  readonly screen: ScreenSnapshot
  /** The program's output (as written, escape sequences included) since the previous entry of the timeline. */
  readonly output: string
  /** How long the program had been silent when the action came (since launch when it never wrote). */
  readonly quiet_ms: number
}

/** One read of the person's keyboard: what the terminal sent, and whether the program's terminal echoed. */
export interface KeystrokeEntry extends ObservedBefore {
  readonly kind: 'keystrokes'
  readonly input: string
  /** The program's terminal modes when the keystrokes came; undefined when they could not be read. */
  readonly modes: LocalModes | undefined
  /**
   * The screen once the program had answered the keystrokes: when it had been quiet for a moment after them, or
   * at the next action, or at its exit, whichever came first (so a fast typist's keys each still have one).
   */
  readonly answer: AnswerScreen
}

/** The person's terminal changed size. */
export interface ResizeEntry extends ObservedBefore {
  readonly kind: 'resize'
  readonly columns: number
  readonly rows: number
}

export type TimelineEntry = KeystrokeEntry | ResizeEntry

/** A whole recording session, in the order things happened. */
export interface RecordedTimeline {
  readonly columns: number
  readonly rows: number
  readonly entries: readonly TimelineEntry[]
  /** Every byte of output, as text: what normalization proposals are read from. */
  readonly output: string
  /** The screen when the program ended, as the person saw it last. */
  readonly finalScreen: ScreenSnapshot
  readonly duration_ms: number
}
