import type { WidthModel } from '../scenario/terminal-model.js'
import { redrawableState } from './frame-state.js'
import { applyWidthModel } from './width-model.js'
import { cursorHidden, loadXterm, synchronousWriter, type XtermTerminal } from './xterm.js'

/** One cell as xterm's buffer API reports it: text, width, colours (palette index or `#rrggbb`; null = default), flags. */
export type Cell = readonly [
  chars: string,
  width: number,
  fg: number | string | null,
  bg: number | string | null,
  flags: number,
]

export const CELL_FLAGS = {
  bold: 1,
  italic: 2,
  dim: 4,
  underline: 8,
  inverse: 16,
  invisible: 32,
  strikethrough: 64,
  blink: 128,
  overline: 256,
} as const

export interface ScreenCells {
  /** Visible rows of the buffer on screen (the alternate one while a program uses it), each `columns` cells. */
  readonly rows: readonly (readonly Cell[])[]
  /** Zero-based. */
  readonly cursor: readonly [row: number, column: number]
}

export interface ReplayedScreen extends ScreenCells {
  /** The rows that scrolled off the normal buffer's screen, oldest first: what a user can scroll back to. */
  readonly scrollback: readonly (readonly Cell[])[]
  /**
   * Whether the replayed text left the cursor shown (`ESC [ ? 25 l` hides it). A frame's serialized state does not
   * carry this, so a replayed frame reads as shown: its `cursor.visible` says.
   */
  readonly cursorVisible: boolean
}

/** The terminal a screen is redrawn in: its size and the width model its text was rendered with. */
export interface ReplayTerminal {
  readonly columns: number
  readonly rows: number
  readonly scrollback: number
  /** The width model the frame was rendered with (the capture's contract names it). */
  readonly widthModel: WidthModel
}

export interface ScreenSource extends ReplayTerminal {
  /** A frame's serialized_state. */
  readonly state: string
}

/** One step of a replayed stream: text the program wrote, or a resize of its terminal. */
export type ReplayStep =
  { readonly text: string } | { readonly resize: readonly [columns: number, rows: number] }

/**
 * Redraws a frame from its serialized state in a headless xterm of the frame's size, under the width model it was
 * rendered with, and reads every cell back: the visible rows, the scrollback and the cursor. Synchronous (xterm's
 * own synchronous write), so a comparison or a matcher can use it without waiting. Throws when xterm or the width
 * model cannot be loaded, or this xterm cannot be written synchronously.
 */
export function replayScreen(source: ScreenSource): ReplayedScreen {
  return replaySteps(source, [{ text: redrawableState(source.state) }])
}

/**
 * Redraws a screen from what the program wrote, step by step (text, and resizes where they came), in a headless
 * xterm that starts at `start`'s size: the screen at any moment of a capture, not only at its frames. Synchronous,
 * and throws as {@link replayScreen} does.
 */
export function replaySteps(start: ReplayTerminal, steps: readonly ReplayStep[]): ReplayedScreen {
  return withReplayedTerminal(start, steps, (terminal) => {
    const active = terminal.buffer.active
    const normal = terminal.buffer.normal
    return {
      rows: readRows(terminal, active, active.baseY, terminal.rows),
      scrollback: readRows(terminal, normal, 0, normal.baseY),
      cursor: [active.cursorY, active.cursorX],
      cursorVisible: cursorHidden(terminal) !== true,
    }
  })
}

/** One row of a redrawn screen as text: its characters, trailing blanks removed. */
export interface RowText {
  readonly text: string
  /** The row continues the one above it: the terminal wrapped a line too long for its width. */
  readonly wrapped: boolean
}

export interface ReplayedText {
  /** The rows that scrolled off the normal buffer's screen, oldest first. */
  readonly scrollback: readonly RowText[]
  /** The visible rows of the buffer on screen. */
  readonly rows: readonly RowText[]
  /** Whether the alternate buffer was on screen (a full-screen program had not left it). */
  readonly alternate: boolean
}

/**
 * Redraws a frame as `replayScreen` does and reads its rows as text: what a person reads, and can copy, off the
 * screen. A row the next one continues keeps its trailing blanks, so joining wrapped rows gives the line as written.
 */
export function replayText(source: ScreenSource, rowText: RowTextReader = plainRowText): ReplayedText {
  return withReplayedTerminal(source, [{ text: redrawableState(source.state) }], (terminal) => {
    const active = terminal.buffer.active
    const normal = terminal.buffer.normal
    const read = (buffer: Buffer, first: number, count: number): RowText[] => {
      const rows: RowText[] = []
      for (let y = first; y < first + count; y++) {
        const line = buffer.getLine(y)
        const continued = buffer.getLine(y + 1)?.isWrapped === true
        rows.push({
          text: line === undefined ? '' : rowText(terminal, line, continued),
          wrapped: line?.isWrapped === true,
        })
      }
      return rows
    }
    return {
      scrollback: read(normal, 0, normal.baseY),
      rows: read(active, active.baseY, terminal.rows),
      alternate: active.type === 'alternate',
    }
  })
}

export type XtermLine = NonNullable<ReturnType<XtermTerminal['buffer']['active']['getLine']>>

/** How a row becomes text: `continued` when the next row continues it (its trailing blanks belong to the line). */
export type RowTextReader = (terminal: XtermTerminal, line: XtermLine, continued: boolean) => string

const plainRowText: RowTextReader = (_, line, continued) => line.translateToString(!continued)

/** A row's cells, as `replayScreen` reads them. */
export function rowCells(terminal: XtermTerminal, line: XtermLine): Cell[] {
  const scratch = terminal.buffer.active.getNullCell()
  const row: Cell[] = []
  for (let x = 0; x < terminal.cols; x++) {
    const cell = line.getCell(x, scratch)
    row.push(cell === undefined ? BLANK : readCell(cell))
  }
  return row
}

function withReplayedTerminal<T>(
  start: ReplayTerminal,
  steps: readonly ReplayStep[],
  read: (terminal: XtermTerminal) => T,
): T {
  const { Terminal } = loadXterm()
  const terminal = new Terminal({
    cols: start.columns,
    rows: start.rows,
    scrollback: start.scrollback,
    allowProposedApi: true,
    logLevel: 'off',
  })
  try {
    applyWidthModel(terminal, start.widthModel)
    const write = synchronousWriter(terminal)
    if (write === undefined) {
      throw new Error('this @xterm/headless has no synchronous write to replay a screen with')
    }
    for (const step of steps) {
      if ('text' in step) {
        write(step.text)
      } else {
        terminal.resize(...step.resize)
      }
    }
    return read(terminal)
  } finally {
    terminal.dispose()
  }
}

type Buffer = XtermTerminal['buffer']['active']

function readRows(terminal: XtermTerminal, buffer: Buffer, first: number, count: number): Cell[][] {
  const rows: Cell[][] = []
  for (let y = first; y < first + count; y++) {
    const line = buffer.getLine(y)
    rows.push(
      line === undefined ? Array.from({ length: terminal.cols }, () => BLANK) : rowCells(terminal, line),
    )
  }
  return rows
}

const BLANK: Cell = ['', 1, null, null, 0]

type BufferCell = NonNullable<ReturnType<Buffer['getNullCell']>>

function readCell(cell: BufferCell): Cell {
  const flags =
    (cell.isBold() ? CELL_FLAGS.bold : 0) |
    (cell.isItalic() ? CELL_FLAGS.italic : 0) |
    (cell.isDim() ? CELL_FLAGS.dim : 0) |
    (cell.isUnderline() ? CELL_FLAGS.underline : 0) |
    (cell.isInverse() ? CELL_FLAGS.inverse : 0) |
    (cell.isInvisible() ? CELL_FLAGS.invisible : 0) |
    (cell.isStrikethrough() ? CELL_FLAGS.strikethrough : 0) |
    (cell.isBlink() ? CELL_FLAGS.blink : 0) |
    (cell.isOverline() ? CELL_FLAGS.overline : 0)
  return [
    cell.getChars(),
    cell.getWidth(),
    color(cell.isFgDefault(), cell.isFgRGB(), cell.getFgColor()),
    color(cell.isBgDefault(), cell.isBgRGB(), cell.getBgColor()),
    flags,
  ]
}

// A palette colour is its index whether it was set as one of the 16 (`ESC [ 34 m`) or of the 256 (`38;5;4`).
function color(isDefault: boolean, isRgb: boolean, value: number): number | string | null {
  return isDefault ? null : isRgb ? `#${value.toString(16).padStart(6, '0')}` : value
}
