import type { LocalModes } from '../terminal/local-modes.js'

/** The screen as the person saw it at one moment: the visible rows as drawn, and the cursor's row. */
export interface ScreenSnapshot {
  readonly rows: readonly string[]
  readonly cursorRow: number
  /** The cursor's row left of the cursor: the prompt the program reads after (a raw-mode password prompt). */
  readonly beforeCursor: string
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
