import {
  CELL_FLAGS,
  replayText,
  rowCells,
  type Cell,
  type ReplayedText,
  type ScreenSource,
} from './screen-replay.js'

/**
 * A row of cells as text with style marks, for Markdown blocks that compare colour (`color`): `{=bold fg=red}` opens
 * a style, `{=}` returns to the default. One spelling per look, so a block's text reads the same whatever sequences
 * drew it: attributes in a fixed order, then the foreground and background, the 16 standard colours by name, the
 * other palette colours by number, RGB as `#rrggbb`.
 */

const ATTRIBUTES: readonly (readonly [flag: number, word: string])[] = [
  [CELL_FLAGS.bold, 'bold'],
  [CELL_FLAGS.dim, 'dim'],
  [CELL_FLAGS.italic, 'italic'],
  [CELL_FLAGS.underline, 'underline'],
  [CELL_FLAGS.blink, 'blink'],
  [CELL_FLAGS.inverse, 'inverse'],
  [CELL_FLAGS.invisible, 'invisible'],
  [CELL_FLAGS.strikethrough, 'strike'],
  [CELL_FLAGS.overline, 'overline'],
]

const NAMES = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white']

function colorWord(color: number | string): string {
  if (typeof color === 'string') {
    return color
  }
  return color < 8
    ? (NAMES[color] as string)
    : color < 16
      ? `bright-${NAMES[color - 8] as string}`
      : String(color)
}

/** The mark that opens a cell's style; `` for the default style. */
export function styleMark(cell: Cell): string {
  const [, , fg, bg, flags] = cell
  const words = ATTRIBUTES.filter(([flag]) => (flags & flag) !== 0).map(([, word]) => word)
  if (fg !== null) {
    words.push(`fg=${colorWord(fg)}`)
  }
  if (bg !== null) {
    words.push(`bg=${colorWord(bg)}`)
  }
  return words.length === 0 ? '' : `{=${words.join(' ')}}`
}

/**
 * The row's text with marks. Trailing blanks in the default style are dropped unless `keepTrailing` (a row the
 * next one continues); a style still open at the end is closed, so every row reads on its own.
 */
export function markedRow(cells: readonly Cell[], keepTrailing: boolean): string {
  let end = cells.length
  while (!keepTrailing && end > 0) {
    const cell = cells[end - 1] as Cell
    if ((cell[0] !== '' && cell[0] !== ' ') || styleMark(cell) !== '') {
      break
    }
    end--
  }
  let text = ''
  let open = ''
  for (const cell of cells.slice(0, end)) {
    if (cell[1] === 0) {
      continue
    }
    const mark = styleMark(cell)
    if (mark !== open) {
      text += mark === '' ? '{=}' : mark
      open = mark
    }
    text += cell[0] === '' ? ' ' : cell[0]
  }
  return open === '' ? text : `${text}{=}`
}

/** `replayText` with style marks: a frame as a Markdown block with `color` reads it. */
export function replayStyledText(source: ScreenSource): ReplayedText {
  return replayText(source, (terminal, line, continued) => markedRow(rowCells(terminal, line), continued))
}
