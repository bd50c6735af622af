import { DEFAULT_COLORS, drawnColor } from '../screen/palette.js'
import { CELL_FLAGS, type Cell, type ScreenCells } from '../screen/screen-replay.js'

/**
 * One terminal screen as SVG, cell by cell from xterm's buffer: the renderer behind every picture REA draws (`rea
 * export svg`, the two screens of a failure). Colours are the palette's (the ones the terminal reported to the
 * program), bold draws the first eight colours bright as xterm.js does, and inverse, dim, italic, the lines
 * (underline, strikethrough, overline) and invisible text are drawn as a terminal draws them.
 *
 * Each row's text is one `<text>` element, so it is selected, copied and found by search as the row reads; its
 * styles are `<tspan>`s. Every glyph is placed at its cell by an explicit x, so the grid holds with any font, and
 * a wide glyph takes its two cells. The output depends on the cells alone: no ids, no times, the same bytes for the
 * same screen.
 */

export const CELL_WIDTH = 8.4
export const CELL_HEIGHT = 17
const FONT_SIZE = 14
/** From the cell's top to the text's baseline. */
const BASELINE = 13
/** The one font stack of REA's pictures: monospace fonts found on Linux, macOS and Windows, then the generic one. */
export const FONT_FAMILY = "'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace"
const DEFAULT_FOREGROUND = DEFAULT_COLORS.foreground
const DEFAULT_BACKGROUND = DEFAULT_COLORS.background

/** A screen and whether its cursor shows. */
export interface ScreenPicture {
  readonly screen: ScreenCells
  readonly cursorVisible: boolean
}

/** A number as SVG coordinates write it: at most two decimals, no float noise. */
export function coordinate(value: number): string {
  return String(Number(value.toFixed(2)))
}

// XML 1.0 has no way to write these, even escaped; a cell rarely holds one (a program printed U+FFFF).
// eslint-disable-next-line no-control-regex -- the characters XML cannot hold
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|\p{Cs}/gu

/** Text for an SVG element or attribute. */
export function svgText(text: string): string {
  return text
    .replace(NOT_XML, '\ufffd')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
}

/** The width and height of a screen's picture. */
export function screenSize(screen: ScreenCells): { readonly width: number; readonly height: number } {
  return { width: (screen.rows[0]?.length ?? 0) * CELL_WIDTH, height: screen.rows.length * CELL_HEIGHT }
}

/** The elements of one screen with its top left corner at (0, 0): its background, each row, the cursor. */
export function screenElements(picture: ScreenPicture): string[] {
  const { width, height } = screenSize(picture.screen)
  const [cursorRow, cursorColumn] = picture.screen.cursor
  return [
    `<g font-family="${svgText(FONT_FAMILY)}" font-size="${FONT_SIZE}" fill="${DEFAULT_FOREGROUND}" xml:space="preserve">`,
    `<rect width="${coordinate(width)}" height="${coordinate(height)}" fill="${DEFAULT_BACKGROUND}"/>`,
    ...picture.screen.rows.flatMap((row, y) => rowElements(row, y)),
    ...(picture.cursorVisible
      ? [
          `<rect class="rea-cursor" x="${coordinate(cursorColumn * CELL_WIDTH)}" y="${cursorRow * CELL_HEIGHT}" width="${CELL_WIDTH}" height="${CELL_HEIGHT}" fill="none" stroke="${DEFAULT_COLORS.cursor}" stroke-width="1"/>`,
        ]
      : []),
    '</g>',
  ]
}

/**
 * One screen as a standalone SVG image. `title` names it for people (a tooltip and what a screen reader says); it is
 * not drawn.
 */
export function renderScreenSvg(picture: ScreenPicture, title: string): string {
  const { width, height } = screenSize(picture.screen)
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${coordinate(width)}" height="${coordinate(height)}" viewBox="0 0 ${coordinate(width)} ${coordinate(height)}">`,
    `<title>${svgText(title)}</title>`,
    ...screenElements(picture),
    '</svg>',
    '',
  ].join('\n')
}

interface CellStyle {
  readonly foreground: string
  /** Null where the cell shows the screen's background. */
  readonly background: string | null
  /** The tspan's attributes beyond its fill. */
  readonly attributes: string
}

function cellStyle(cell: Cell): CellStyle {
  const [, , fg, bg, flags] = cell
  const has = (flag: number): boolean => (flags & flag) !== 0
  let foreground = drawnColor(fg, has(CELL_FLAGS.bold)) ?? DEFAULT_FOREGROUND
  let background = drawnColor(bg, false)
  if (has(CELL_FLAGS.inverse)) {
    ;[foreground, background] = [background ?? DEFAULT_BACKGROUND, foreground]
  }
  const decorations = [
    has(CELL_FLAGS.underline) ? 'underline' : '',
    has(CELL_FLAGS.strikethrough) ? 'line-through' : '',
    has(CELL_FLAGS.overline) ? 'overline' : '',
  ]
    .filter(Boolean)
    .join(' ')
  const attributes = [
    has(CELL_FLAGS.bold) ? ' font-weight="bold"' : '',
    has(CELL_FLAGS.italic) ? ' font-style="italic"' : '',
    has(CELL_FLAGS.dim) ? ' fill-opacity="0.5"' : '',
    decorations === '' ? '' : ` text-decoration="${decorations}"`,
    // Hidden, not left out: the text is still there to copy, as in a terminal.
    has(CELL_FLAGS.invisible) ? ' visibility="hidden"' : '',
  ].join('')
  return { foreground, background, attributes }
}

function rowElements(row: readonly Cell[], y: number): string[] {
  return [...backgroundRects(row, y), ...rowText(row, y)]
}

/** A rectangle per run of cells whose background is not the screen's. */
function backgroundRects(row: readonly Cell[], y: number): string[] {
  const rects: string[] = []
  let column = 0
  while (column < row.length) {
    const background = cellStyle(row[column] as Cell).background
    let end = column + 1
    while (end < row.length && cellStyle(row[end] as Cell).background === background) {
      end++
    }
    if (background !== null) {
      rects.push(
        `<rect x="${coordinate(column * CELL_WIDTH)}" y="${y * CELL_HEIGHT}" width="${coordinate((end - column) * CELL_WIDTH)}" height="${CELL_HEIGHT}" fill="${background}"/>`,
      )
    }
    column = end
  }
  return rects
}

/** A run of cells drawn as one tspan: their text and each glyph's column. */
interface Span {
  readonly style: CellStyle
  readonly key: string
  text: string
  readonly columns: number[]
}

/**
 * The row's text as one `<text>`: spans of cells with the same look, each glyph at its column. A blank takes the
 * look of the span it sits in (nothing of it shows but a line drawn across it), and the blanks at the row's end are
 * left out. A cell of more than one UTF-16 unit (an emoji, a cluster with a combining mark) is a span of its own,
 * since an x list counts characters in ways that differ between renderers.
 */
function rowText(row: readonly Cell[], y: number): string[] {
  const spans: Span[] = []
  let end = 0
  for (const [column, cell] of row.entries()) {
    const [chars, width, , , flags] = cell
    if (width === 0) {
      continue
    }
    const blank = chars === '' || chars === ' '
    const lines = (flags & (CELL_FLAGS.underline | CELL_FLAGS.strikethrough | CELL_FLAGS.overline)) !== 0
    const text = blank ? ' ' : chars
    const style = cellStyle(cell)
    const key = `${style.foreground}|${style.attributes}`
    const last = spans.at(-1)
    const single = text.length === 1
    // A plain blank joins any span but one whose lines it would be drawn with.
    const joins = last?.key === key || (blank && !lines && !(last?.key.includes('text-decoration') ?? true))
    if (last !== undefined && single && last.text.length === last.columns.length && joins) {
      last.text += text
      last.columns.push(column)
    } else {
      spans.push({ style, key, text, columns: [column] })
    }
    if (!blank || lines) {
      end = spans.length
    }
  }
  const shown = trimTrailingBlanks(spans.slice(0, end))
  if (shown.length === 0) {
    return []
  }
  const tspans = shown.map(
    (span) =>
      `<tspan x="${span.columns.map((column) => coordinate(column * CELL_WIDTH)).join(' ')}"${span.style.foreground === DEFAULT_FOREGROUND ? '' : ` fill="${span.style.foreground}"`}${span.style.attributes}>${svgText(span.text)}</tspan>`,
  )
  return [`<text y="${y * CELL_HEIGHT + BASELINE}">${tspans.join('')}</text>`]
}

/** The last span without the blanks it ends with, which draw nothing. */
function trimTrailingBlanks(spans: Span[]): Span[] {
  const last = spans.at(-1)
  if (last === undefined) {
    return spans
  }
  const kept = last.text.trimEnd().length
  if (kept === last.text.length || !/[^ ]/.test(last.text) || last.key.includes('text-decoration')) {
    return spans
  }
  return [
    ...spans.slice(0, -1),
    { ...last, text: last.text.slice(0, kept), columns: last.columns.slice(0, kept) },
  ]
}
