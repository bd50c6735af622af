import { cellAppearance, describeCell } from '../screen/cell-appearance.js'
import { CELL_FLAGS, type Cell, type ScreenCells } from '../screen/screen-replay.js'

/**
 * Two screens side by side for a terminal, as `rea review` draws them: each cell in its own colours and
 * attributes, every cell that looks different on the two sides marked (on a colour terminal a dark red background
 * on the old side and a dark green one on the new, or underlined where the cell has a background of its own;
 * without colour, in inverse video), and both sides moved together, across and down, so the first change is in
 * view. Lines are exactly `width` cells wide.
 */

export interface SideBySideInput {
  readonly left: ScreenCells | null
  readonly right: ScreenCells | null
  /** Columns for both sides and the separator between them. */
  readonly width: number
  /** Rows at most; fewer when the screens' content is shorter. */
  readonly height: number
  readonly colour: boolean
}

/** The first run of changed cells, in words: `row 4, columns 12-17: "tasks" → "chores"`. */
export interface FirstChange {
  readonly row: number
  readonly first: number
  readonly last: number
  readonly before: string
  readonly after: string
}

export interface SideBySide {
  readonly lines: readonly string[]
  /** Rows of either screen that hold a changed cell (0-based), and the first change. */
  readonly changedRows: number
  readonly firstChange: FirstChange | null
  /** The first row and column shown (0-based), when the screens are larger than the space. */
  readonly offset: readonly [row: number, column: number]
}

const SEPARATOR = ' │ '
const OLD_MARK = '48;5;52'
const NEW_MARK = '48;5;22'
const BLANK: Cell = ['', 1, null, null, 0]

export function renderSideBySide(input: SideBySideInput): SideBySide {
  const side = Math.max(1, Math.floor((input.width - SEPARATOR.length) / 2))
  const rows = Math.max(input.left?.rows.length ?? 0, input.right?.rows.length ?? 0)
  const columns = Math.max(input.left?.rows[0]?.length ?? 0, input.right?.rows[0]?.length ?? 0)
  const changed = changedCells(input.left, input.right, rows, columns)
  const content = Math.max(lastUsedRow(input.left), lastUsedRow(input.right), ...changed.keys()) + 1
  const height = Math.max(0, Math.min(input.height, content))
  const first = firstChange(changed, input.left, input.right)
  const top = first === null ? 0 : clamp(first.row - 2, 0, content - height)
  const left =
    first === null ? 0 : clamp(first.first - 1 - Math.floor(side / 3), 0, Math.max(0, columns - side))
  const lines: string[] = []
  for (let y = top; y < top + height; y++) {
    const marks = changed.get(y) ?? new Set<number>()
    lines.push(
      drawRow(input.left?.rows[y], marks, left, side, input.colour ? OLD_MARK : null) +
        SEPARATOR +
        drawRow(input.right?.rows[y], marks, left, side, input.colour ? NEW_MARK : null),
    )
  }
  return {
    lines,
    changedRows: changed.size,
    firstChange: first === null ? null : { ...first, row: first.row + 1 },
    offset: [top, left],
  }
}

/** For each row with a change, the columns whose cells look different (a missing cell looks untouched). */
function changedCells(
  a: ScreenCells | null,
  b: ScreenCells | null,
  rows: number,
  columns: number,
): Map<number, Set<number>> {
  const changed = new Map<number, Set<number>>()
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < columns; x++) {
      if (cellAppearance(a?.rows[y]?.[x] ?? BLANK) !== cellAppearance(b?.rows[y]?.[x] ?? BLANK)) {
        const row = changed.get(y) ?? new Set<number>()
        row.add(x)
        changed.set(y, row)
      }
    }
  }
  return changed
}

function firstChange(
  changed: Map<number, Set<number>>,
  a: ScreenCells | null,
  b: ScreenCells | null,
): FirstChange | null {
  const row = Math.min(...changed.keys())
  const marks = changed.get(row)
  if (marks === undefined) {
    return null
  }
  const first = Math.min(...marks)
  let last = first
  while (marks.has(last + 1)) {
    last++
  }
  const text = (screen: ScreenCells | null) => {
    const cells = screen?.rows[row]?.slice(first, last + 1) ?? []
    return cells.length === 1
      ? describeCell(cells[0])
      : JSON.stringify(cells.map((cell) => cell[0] || ' ').join(''))
  }
  return { row, first: first + 1, last: last + 1, before: text(a), after: text(b) }
}

function lastUsedRow(screen: ScreenCells | null): number {
  const rows = screen?.rows ?? []
  for (let y = rows.length - 1; y >= 0; y--) {
    if (rows[y]?.some((cell) => cellAppearance(cell) !== cellAppearance(BLANK))) {
      return y
    }
  }
  return -1
}

/** `width` cells of a row from column `from`, each in its own style; a wide glyph cut by an edge is a blank. */
function drawRow(
  row: readonly Cell[] | undefined,
  marks: ReadonlySet<number>,
  from: number,
  width: number,
  mark: string | null,
): string {
  let text = ''
  let style = ''
  for (let x = from; x < from + width; x++) {
    const cell = row?.[x] ?? BLANK
    const [chars, cellWidth] = cell
    if (cellWidth === 0 && x !== from) {
      continue
    }
    const cut = cellWidth === 0 || (cellWidth === 2 && x === from + width - 1)
    const next = styleOf(cell, marks.has(x), mark)
    if (next !== style) {
      text += `\x1b[0${next === '' ? '' : `;${next}`}m`
      style = next
    }
    text += cut || chars === '' ? ' ' : chars
  }
  return `${text}${style === '' ? '' : '\x1b[0m'}`
}

const SGR_FLAGS: readonly (readonly [keyof typeof CELL_FLAGS, number])[] = [
  ['bold', 1],
  ['dim', 2],
  ['italic', 3],
  ['underline', 4],
  ['blink', 5],
  ['inverse', 7],
  ['invisible', 8],
  ['strikethrough', 9],
  ['overline', 53],
]

/** The select graphic rendition parameters that draw a cell, with its mark when it changed. */
function styleOf(cell: Cell, changed: boolean, mark: string | null): string {
  const [, , fg, bg, flags] = cell
  const parts = SGR_FLAGS.filter(([name]) => (flags & CELL_FLAGS[name]) !== 0).map(([, code]) => String(code))
  if (mark === null) {
    // Without colour: attributes only, and a change in inverse video (or out of it, on an inverse cell).
    const inverse = ((flags & CELL_FLAGS.inverse) !== 0) !== changed
    return parts
      .filter((part) => part !== '7')
      .concat(inverse ? ['7'] : [])
      .join(';')
  }
  if (fg !== null) {
    parts.push(colourParameters(fg, 'fg'))
  }
  if (changed && bg === null) {
    parts.push(mark)
  } else {
    if (bg !== null) {
      parts.push(colourParameters(bg, 'bg'))
    }
    if (changed && !parts.includes('4')) {
      parts.push('4')
    }
  }
  return parts.join(';')
}

function colourParameters(colour: number | string, layer: 'fg' | 'bg'): string {
  const base = layer === 'fg' ? 30 : 40
  if (typeof colour === 'string') {
    const value = Number.parseInt(colour.slice(1), 16)
    return `${base + 8};2;${(value >> 16) & 255};${(value >> 8) & 255};${value & 255}`
  }
  if (colour < 8) {
    return String(base + colour)
  }
  if (colour < 16) {
    return String(base + 60 + colour - 8)
  }
  return `${base + 8};5;${colour}`
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(value, Math.max(low, high)))
}
