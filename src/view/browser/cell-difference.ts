import type { IBufferCell, Terminal } from '@xterm/xterm'

/** A cell read three ways: how it looks, exactly how it was written, and its characters. */
export type CellKeys = readonly [look: string, exact: string, chars: string]

/** How two cells differ: in how they look, only in written blanks, only in spelling; null when they do not. */
export type CellDifference = 'visible' | 'blank' | 'spelling'

const attributes = (cell: IBufferCell): unknown[] => [
  cell.getWidth(),
  cell.isBold(),
  cell.isItalic(),
  cell.isDim(),
  cell.isUnderline(),
  cell.isBlink(),
  cell.isInverse(),
  cell.isInvisible(),
  cell.isStrikethrough(),
  cell.isOverline(),
]

function colour(isDefault: boolean, isRgb: boolean, value: number, name: string): string {
  return isDefault ? name : `${isRgb ? '#' : ''}${value}`
}

// A cell as it looks, as REA's screens comparison reads it (src/screen/cell-appearance.ts): a blank shows only
// its background and the lines across it, inverse video swaps the colours, a 16- and a 256-colour index agree.
function appearanceKey(cell: IBufferCell): string {
  if (cell.getWidth() === 0) {
    return ''
  }
  let foreground = colour(cell.isFgDefault(), cell.isFgRGB(), cell.getFgColor(), 'fg')
  let background = colour(cell.isBgDefault(), cell.isBgRGB(), cell.getBgColor(), 'bg')
  if (cell.isInverse() !== 0) {
    ;[foreground, background] = [background, foreground]
  }
  const lines = [cell.isUnderline(), cell.isStrikethrough(), cell.isOverline()].map(Boolean).join()
  const chars = cell.getChars()
  if (chars === '' || chars === ' ' || cell.isInvisible() !== 0) {
    return ['blank', background, lines, foreground].join('\u0000')
  }
  return [
    chars,
    cell.getWidth(),
    foreground,
    background,
    lines,
    Boolean(cell.isBold()),
    Boolean(cell.isDim()),
    Boolean(cell.isItalic()),
    Boolean(cell.isBlink()),
  ].join('\u0000')
}

function cellKeys(cell: IBufferCell): CellKeys {
  const exact = [
    cell.getChars(),
    cell.getFgColorMode(),
    cell.getFgColor(),
    cell.getBgColorMode(),
    cell.getBgColor(),
    ...attributes(cell),
  ].join('\u0000')
  return [appearanceKey(cell), exact, cell.getChars()]
}

const OUTSIDE: readonly [null, null, null] = [null, null, null]

/** The keys of the visible cell at `row`, `column` (zero-based); nulls outside the terminal's size. */
export function keysAt(
  terminal: Terminal | null,
  row: number,
  column: number,
  scratch: IBufferCell,
): CellKeys | typeof OUTSIDE {
  if (terminal === null || row >= terminal.rows || column >= terminal.cols) {
    return OUTSIDE
  }
  const buffer = terminal.buffer.active
  const cell = buffer.getLine(buffer.viewportY + row)?.getCell(column, scratch)
  return cell === undefined ? ['', '', ''] : cellKeys(cell)
}

const isBlank = (chars: string | null): boolean => chars === '' || chars === ' '

/** Whether two cells differ, and how: a blank difference is a written space against an untouched cell. */
export function cellDifference(
  p: CellKeys | typeof OUTSIDE,
  q: CellKeys | typeof OUTSIDE,
): CellDifference | null {
  if (p[0] !== q[0]) {
    return 'visible'
  }
  if (p[1] === q[1]) {
    return null
  }
  return p[2] !== q[2] && isBlank(p[2]) && isBlank(q[2]) ? 'blank' : 'spelling'
}
