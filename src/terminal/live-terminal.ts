import type { TerminalSettings } from '../scenario/schema.js'
import type { CursorState } from '../screen/cursor-cells.js'
import { Renderer, type RendererFlowControl } from '../screen/renderer.js'

/** The screen as a person sees it at one moment, read for the recorder (`LiveTerminal.drawnScreen`). */
export interface DrawnScreen {
  /** The visible rows as drawn: spaces the program wrote kept, cells never written left out. */
  readonly rows: string[]
  /** The same rows with the cells a program draws as a cursor of its own (inverse, concealed, coloured) blanked. */
  readonly textRows: string[]
  readonly cursor: CursorState
  /** The cursor's row left of the cursor. */
  readonly beforeCursor: string
}

/** The screen before the program drew anything: no rows, the cursor shown at the top left. */
export function blankDrawnScreen(): DrawnScreen {
  return {
    rows: [],
    textRows: [],
    cursor: { row: 0, column: 0, visible: true, alternate: false },
    beforeCursor: '',
  }
}

/**
 * Text that can make xterm reply or change a mode: an escape or control sequence starts with ESC or a C1
 * control (U+0080–U+009F, which xterm parses as CSI, OSC, DCS, …). Text without either only prints and moves
 * the cursor.
 */
// eslint-disable-next-line no-control-regex -- ESC and C1 controls are what the test looks for
const SEQUENCE_START = /[\x1b\x80-\x9f]/

/**
 * The terminal as the program sees it while it runs: fed with every retained chunk as it arrives (the
 * original text, masked but not normalized, as a real terminal would show it), it answers queries, holds the
 * modes keys are encoded for, and shows the screen waits look at. Frames are rendered separately, from the
 * normalized text. It stops following the output at the first chunk the output budget drops, so a flood past
 * the budget costs it nothing; what needed it then says so.
 *
 * Plain text is parsed only once something needs it. Nothing can be answered or switched until a chunk holds
 * a sequence, so such text is queued while no wait watches the screen and no sequence is left open, and parsed,
 * in order, before the next sequence or when the screen, the modes or a wait needs it. A program that only
 * prints then never costs a parse here (a flood's first MiB was most of the CLI's CPU time), and a query is
 * answered after every byte before it, as a terminal would.
 */
export class LiveTerminal {
  readonly #renderer: Renderer
  readonly #listeners = new Set<() => void>()
  #stopped: string | undefined
  /** Chunks fed so far, and how many of them the screen is known to reflect (xterm parses in order). */
  #fed = 0
  #parsed = 0

  /**
   * `onReply` receives the answers of REA's reply table, which reports `terminalType`'s capabilities, until the
   * terminal is stopped: a query xterm was still parsing then is left unanswered, as any later one.
   */
  constructor(
    terminal: TerminalSettings,
    flowControl: RendererFlowControl,
    onReply: ((reply: string) => void) | undefined,
    terminalType?: string,
  ) {
    this.#renderer = new Renderer(terminal, flowControl, {
      widthModel: terminal.width_model,
      serializes: false,
      ...(onReply === undefined
        ? {}
        : {
            onReply: (reply: string) => {
              if (this.#stopped === undefined) {
                onReply(reply)
              }
            },
          }),
      ...(terminalType === undefined ? {} : { terminalType }),
    })
  }

  /**
   * Opens the emulator ahead of the program's first query, one step per turn of the event loop (xterm, the width
   * model's data, the terminal), so that output and the root's exit arriving meanwhile are handled between
   * steps, and the first reply comes as fast as later ones. Output that needs the emulator before the steps are
   * done opens it at once, as it always did. Returns a disposer that drops the steps not taken yet.
   */
  prepare(): () => void {
    const steps = ['emulator', 'width_model', 'terminal'] as const
    let immediate: NodeJS.Immediate | undefined
    const take = (index: number): void => {
      immediate = undefined
      const step = steps[index]
      if (step === undefined || this.#stopped !== undefined || this.#renderer.opened) {
        return
      }
      if (this.#renderer.prepare(step)) {
        immediate = setImmediate(() => take(index + 1))
      }
    }
    take(0)
    return () => clearImmediate(immediate)
  }

  /** Output as the program wrote it; ignored once stopped. */
  feed(text: string): void {
    if (this.#stopped !== undefined || text === '') {
      return
    }
    const chunk = ++this.#fed
    // Plain text continues a sequence the last chunk left open (`ESC [` then `6n`): it is queued only once what
    // was written before is parsed back to the ground state.
    if (this.#listeners.size === 0 && !SEQUENCE_START.test(text) && this.#renderer.parsedToGround) {
      this.#renderer.enqueue(text)
    } else {
      // Parsed at once where it is small and nothing is pending: a query in it is answered before the next
      // chunk is read, not on xterm's next timer tick.
      this.#renderer.writeNow(text, () => this.#parsedThrough(chunk))
    }
  }

  /** A mark in the output fed so far, for `showsOutputAfter`. */
  outputMark(): number {
    return this.#fed
  }

  /**
   * Whether the screen, as it stands, already reflects output fed after `mark`: a screen wait uses it so the
   * screen the previous input is about to replace cannot satisfy it.
   */
  showsOutputAfter(mark: number): boolean {
    if (this.#renderer.idle) {
      this.#parsed = this.#fed
    }
    return this.#parsed > mark
  }

  /**
   * Stops following the output, for the reason given; waits on the screen then end. Queued plain text is
   * dropped: it holds no sequence to answer, and no wait reads the screen once the terminal stopped.
   */
  stop(reason: string): void {
    if (this.#stopped === undefined) {
      this.#stopped = reason
      this.#renderer.discardQueued()
      this.#changed()
    }
  }

  get stopped(): string | undefined {
    return this.#stopped
  }

  get applicationCursorKeys(): boolean {
    return this.#renderer.applicationCursorKeys
  }

  /** Everything fed so far is parsed. */
  get idle(): boolean {
    return this.#renderer.idle
  }

  /**
   * The visible rows as drawn (trailing spaces the program wrote kept, see `Renderer.readDrawnLines`) joined by
   * newlines, or undefined before anything was parsed.
   */
  screenText(): string | undefined {
    return this.#renderer.opened ? this.#renderer.readDrawnLines().join('\n') : undefined
  }

  /**
   * The visible rows as drawn (see `screenText`), the same rows with the cells a program draws as a cursor
   * blanked, the cursor (row, column, shown, alternate screen) and the text left of it on its row; read it inside
   * `whenRendered`.
   */
  drawnScreen(): DrawnScreen {
    return this.#renderer.opened
      ? {
          rows: this.#renderer.readDrawnLines(),
          textRows: this.#renderer.readRowsWithoutCursorCells(),
          cursor: this.#renderer.readCursorState(),
          beforeCursor: this.#renderer.readBeforeCursor(),
        }
      : blankDrawnScreen()
  }

  /**
   * Calls `listener` whenever the screen may have changed. Text still queued is parsed first: at once when
   * little is queued (a screen read right after this sees it), else through xterm's write queue, with a call
   * once it is parsed.
   */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener)
    if (!this.#renderer.idle && this.#stopped === undefined) {
      const chunk = this.#fed
      const changed = (): void => this.#parsedThrough(chunk)
      void this.#renderer.whenRendered(() => undefined).then(changed, changed)
    }
    return () => this.#listeners.delete(listener)
  }

  whenRendered<T>(read: () => T): Promise<T> {
    return this.#renderer.whenRendered(read)
  }

  resize(columns: number, rows: number): void {
    this.#renderer.resize(columns, rows)
  }

  dispose(): void {
    this.#listeners.clear()
    this.#renderer.dispose()
  }

  #parsedThrough(chunk: number): void {
    this.#parsed = Math.max(this.#parsed, chunk)
    this.#changed()
  }

  #changed(): void {
    for (const listener of this.#listeners) {
      listener()
    }
  }
}
