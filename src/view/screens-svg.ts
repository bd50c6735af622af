import { cellAppearance } from '../screen/cell-appearance.js'
import { DEFAULT_COLORS, drawnColor } from '../screen/palette.js'
import { escapeHtml as x } from './page-assets.js'
import { CELL_FLAGS, type Cell, type ScreenCells } from './screen-cells.js'

/**
 * Two screens side by side as one SVG image, cell by cell from xterm's buffer (the colours of xterm.js's default
 * theme, bold in bright colours as xterm.js draws it), with every run of differing cells outlined: a picture a
 * test UI can show inline. Each run of text is stretched to its cells, so the grid holds with any font.
 */

const CELL_WIDTH = 8.4
const CELL_HEIGHT = 17
const FONT_SIZE = 14
const PADDING = 12
const GAP = 24
const LABEL_HEIGHT = 22
const DEFAULT_FOREGROUND = DEFAULT_COLORS.foreground
const DEFAULT_BACKGROUND = DEFAULT_COLORS.background

export interface SvgPanel {
  readonly label: string
  readonly screen: ScreenCells
}

export function renderScreensSvg(panels: readonly SvgPanel[], caption: string): string {
  const widths = panels.map((panel) => (panel.screen.rows[0]?.length ?? 0) * CELL_WIDTH)
  const rows = Math.max(0, ...panels.map((panel) => panel.screen.rows.length))
  const width = Math.ceil(
    PADDING * 2 + widths.reduce((sum, each) => sum + each, 0) + GAP * Math.max(0, panels.length - 1),
  )
  const height = Math.ceil(PADDING * 2 + LABEL_HEIGHT * 2 + rows * CELL_HEIGHT)
  const [first, second] = panels
  const differing =
    panels.length === 2 && first !== undefined && second !== undefined
      ? differingRuns(first.screen, second.screen)
      : []
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="${width}" height="${height}" fill="#fafafa"/>`,
    `<text x="${PADDING}" y="${PADDING + 14}" font-family="DejaVu Sans, sans-serif" font-size="14" fill="#1b1b1b">${x(caption)}</text>`,
  ]
  let left = PADDING
  for (const [index, panel] of panels.entries()) {
    const top = PADDING + LABEL_HEIGHT * 2
    parts.push(
      `<text x="${left}" y="${top - 6}" font-family="DejaVu Sans, sans-serif" font-size="13" font-weight="bold" fill="#1b1b1b">${x(panel.label)}</text>`,
      `<g transform="translate(${left} ${top})" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="${FONT_SIZE}" xml:space="preserve">`,
      `<rect width="${widths[index]}" height="${panel.screen.rows.length * CELL_HEIGHT}" fill="${DEFAULT_BACKGROUND}"/>`,
      ...panel.screen.rows.flatMap((row, y) => rowSvg(row, y)),
      ...differing.map(
        ([y, column, span]) =>
          `<rect class="rea-diff-cell" x="${column * CELL_WIDTH}" y="${y * CELL_HEIGHT}" width="${span * CELL_WIDTH}" height="${CELL_HEIGHT}" fill="#ff5252" fill-opacity="0.2" stroke="#ff5252" stroke-width="2"/>`,
      ),
      `<rect x="${panel.screen.cursor[1] * CELL_WIDTH}" y="${panel.screen.cursor[0] * CELL_HEIGHT}" width="${CELL_WIDTH}" height="${CELL_HEIGHT}" fill="none" stroke="${DEFAULT_FOREGROUND}" stroke-width="1"/>`,
      '</g>',
    )
    left += (widths[index] ?? 0) + GAP
  }
  parts.push('</svg>', '')
  return parts.join('\n')
}

/** Runs `[row, column, width]` of cells that differ in any way between two screens (zero-based). */
export function differingRuns(a: ScreenCells, b: ScreenCells): [number, number, number][] {
  const rows = Math.max(a.rows.length, b.rows.length)
  const runs: [number, number, number][] = []
  for (let y = 0; y < rows; y++) {
    const p = a.rows[y] ?? []
    const q = b.rows[y] ?? []
    const columns = Math.max(p.length, q.length)
    let start = -1
    for (let column = 0; column <= columns; column++) {
      const left = p[column]
      const right = q[column]
      // Cells are compared as they look: a written blank and an untouched cell are not outlined.
      const differs =
        column < columns &&
        (left === undefined || right === undefined || cellAppearance(left) !== cellAppearance(right))
      if (differs && start === -1) {
        start = column
      } else if (!differs && start !== -1) {
        runs.push([y, start, column - start])
        start = -1
      }
    }
  }
  return runs
}

function rowSvg(row: readonly Cell[], y: number): string[] {
  const parts: string[] = []
  let column = 0
  while (column < row.length) {
    const cell = row[column] as Cell
    const style = cellStyle(cell)
    let end = column + 1
    // A run: cells of the same style, one column each; a wide character stands alone.
    while (
      cell[1] === 1 &&
      end < row.length &&
      row[end]?.[1] === 1 &&
      cellStyle(row[end] as Cell).key === style.key
    ) {
      end++
    }
    const span = cell[1] === 2 ? 2 : end - column
    if (style.background !== null) {
      parts.push(
        `<rect x="${column * CELL_WIDTH}" y="${y * CELL_HEIGHT}" width="${span * CELL_WIDTH}" height="${CELL_HEIGHT}" fill="${style.background}"/>`,
      )
    }
    // Only the run's printed part, from its first to its last non-blank cell: SVG does not keep a text's edge
    // spaces, and stretching text over them would widen every glyph.
    const cells = row.slice(column, column + (cell[1] === 2 ? 1 : span)).map((each) => each[0] || ' ')
    const first = cells.findIndex((text) => text.trim() !== '')
    if (first !== -1 && !style.invisible) {
      const last = cells.length - 1 - [...cells].reverse().findIndex((text) => text.trim() !== '')
      const shown = cell[1] === 2 ? 2 : last - first + 1
      parts.push(
        `<text x="${(column + first) * CELL_WIDTH}" y="${(y + 1) * CELL_HEIGHT - 4}" textLength="${shown * CELL_WIDTH}" lengthAdjust="spacingAndGlyphs" fill="${style.foreground}"${style.attributes}>${x(cells.slice(first, last + 1).join(''))}</text>`,
      )
    }
    column = cell[1] === 2 ? column + 2 : end
  }
  return parts
}

function cellStyle(cell: Cell) {
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
  ].join('')
  return {
    foreground,
    background,
    attributes,
    invisible: has(CELL_FLAGS.invisible),
    key: `${foreground}|${background ?? ''}|${attributes}|${has(CELL_FLAGS.invisible)}`,
  }
}
