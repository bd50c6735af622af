import { cellAppearance } from '../screen/cell-appearance.js'
import type { ScreenCells } from './screen-cells.js'
import {
  CELL_HEIGHT,
  CELL_WIDTH,
  coordinate,
  FONT_FAMILY,
  screenElements,
  screenSize,
  svgText,
  type ScreenPicture,
} from './screen-svg.js'

/**
 * Screens side by side as one SVG image, each drawn by the one screen renderer (`screen-svg.ts`), with every run of
 * cells that differs between two screens outlined on both: a picture a test UI can show inline.
 */

const PADDING = 12
const GAP = 24
const LABEL_HEIGHT = 22
const INK = '#1b1b1b'

export interface SvgPanel {
  readonly label: string
  readonly screen: ScreenCells
  /** Default: shown. */
  readonly cursorVisible?: boolean
}

export function renderScreensSvg(panels: readonly SvgPanel[], caption: string): string {
  const sizes = panels.map((panel) => screenSize(panel.screen))
  const rows = Math.max(0, ...panels.map((panel) => panel.screen.rows.length))
  const width = Math.ceil(
    PADDING * 2 + sizes.reduce((sum, each) => sum + each.width, 0) + GAP * Math.max(0, panels.length - 1),
  )
  const height = Math.ceil(PADDING * 2 + LABEL_HEIGHT * 2 + rows * CELL_HEIGHT)
  const [first, second] = panels
  const differing =
    panels.length === 2 && first !== undefined && second !== undefined
      ? differingRuns(first.screen, second.screen)
      : []
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<title>${svgText(caption)}</title>`,
    `<rect width="${width}" height="${height}" fill="#fafafa"/>`,
    `<text x="${PADDING}" y="${PADDING + 14}" font-family="${svgText(FONT_FAMILY)}" font-size="13" fill="${INK}" xml:space="preserve">${svgText(caption)}</text>`,
  ]
  let left = PADDING
  for (const [index, panel] of panels.entries()) {
    const top = PADDING + LABEL_HEIGHT * 2
    const picture: ScreenPicture = { screen: panel.screen, cursorVisible: panel.cursorVisible ?? true }
    parts.push(
      `<text x="${coordinate(left)}" y="${top - 6}" font-family="${svgText(FONT_FAMILY)}" font-size="13" font-weight="bold" fill="${INK}" xml:space="preserve">${svgText(panel.label)}</text>`,
      `<g transform="translate(${coordinate(left)} ${top})">`,
      ...screenElements(picture),
      ...differing.map(
        ([y, column, span]) =>
          `<rect class="rea-diff-cell" x="${coordinate(column * CELL_WIDTH)}" y="${y * CELL_HEIGHT}" width="${coordinate(span * CELL_WIDTH)}" height="${CELL_HEIGHT}" fill="#ff5252" fill-opacity="0.2" stroke="#ff5252" stroke-width="2"/>`,
      ),
      '</g>',
    )
    left += (sizes[index]?.width ?? 0) + GAP
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
