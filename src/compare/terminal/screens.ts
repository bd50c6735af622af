import type { WidthModel } from '../../scenario/terminal-model.js'
import { replayScreen, type Cell, type ReplayedScreen } from '../../screen/screen-replay.js'
import { cellAppearance, describeCell } from '../../screen/cell-appearance.js'
import type { DimensionFindings } from '../findings.js'
import { cursorValue, type FrameLocation, type FramePairComparison, type RetainedFrame } from './frames.js'
import { errorMessage } from '../../internal/error-message.js'

/** What both sides' frames are replayed under: the contract's width model and scrollback. */
export interface ScreenContext {
  readonly widthModel: WidthModel
  readonly scrollback: number
}

/**
 * The screens level's frame comparison: what the screen shows, cell by cell, as a person would see it. Each
 * frame's serialized state is replayed in a headless terminal and read back; rows are compared as they look
 * (`cellAppearance`), so the order the program drew them in, the escape sequences it spelled attributes with,
 * and whether a blank was written or never touched do not count. The visible rows come first, then the scrollback
 * the program wrote, then the cursor: its visibility, and its position wherever it is shown on either side.
 */
export function compareScreens(findings: DimensionFindings, context: ScreenContext): FramePairComparison {
  return (x, y, location, label) => {
    // The same recorded state redraws the same screen: nothing to replay.
    if (x.serialized_state !== y.serialized_state) {
      let screens: [ReplayedScreen, ReplayedScreen]
      try {
        screens = [replay(x, context), replay(y, context)]
      } catch (error) {
        findings.unknown(
          'screens_unavailable',
          `${label} could not be redrawn to compare its cells: ${errorMessage(error)}`,
        )
        return
      }
      if (!sameCells(screens[0], screens[1], location, label, findings)) {
        return
      }
    }
    compareCursor(x, y, location, label, findings)
  }
}

function replay(frame: RetainedFrame, context: ScreenContext): ReplayedScreen {
  return replayScreen({
    columns: frame.columns,
    rows: frame.rows,
    scrollback: context.scrollback,
    state: frame.serialized_state,
    widthModel: context.widthModel,
  })
}

/** Whether both screens show the same cells; the first that differs is recorded. */
function sameCells(
  a: ReplayedScreen,
  b: ReplayedScreen,
  location: FrameLocation,
  label: string,
  findings: DimensionFindings,
): boolean {
  const visible = firstDifferentCell(a.rows, b.rows)
  if (visible !== undefined) {
    const [row, column] = visible
    findings.differ(
      'terminal.frames.cells',
      `${label} shows a different cell at row ${row + 1}, column ${column + 1}`,
      describeCell(a.rows[row]?.[column]),
      describeCell(b.rows[row]?.[column]),
      { ...location, row: row + 1, column: column + 1 },
    )
    return false
  }
  if (a.scrollback.length !== b.scrollback.length) {
    findings.differ(
      'terminal.frames.scrollback',
      `${label} has ${a.scrollback.length} rows of scrollback in the authority and ${b.scrollback.length} in the reconstruction`,
      a.scrollback.length,
      b.scrollback.length,
      { ...location, scrollback_row: Math.min(a.scrollback.length, b.scrollback.length) + 1 },
    )
    return false
  }
  const scrolled = firstDifferentCell(a.scrollback, b.scrollback)
  if (scrolled !== undefined) {
    const [row, column] = scrolled
    findings.differ(
      'terminal.frames.cells',
      `${label} has a different cell in its scrollback at row ${row + 1}, column ${column + 1}`,
      describeCell(a.scrollback[row]?.[column]),
      describeCell(b.scrollback[row]?.[column]),
      { ...location, column: column + 1, scrollback_row: row + 1 },
    )
    return false
  }
  return true
}

function firstDifferentCell(
  a: readonly (readonly Cell[])[],
  b: readonly (readonly Cell[])[],
): [row: number, column: number] | undefined {
  for (let row = 0; row < Math.max(a.length, b.length); row++) {
    const p = a[row] ?? []
    const q = b[row] ?? []
    for (let column = 0; column < Math.max(p.length, q.length); column++) {
      const x = p[column]
      const y = q[column]
      if (x === undefined || y === undefined || cellAppearance(x) !== cellAppearance(y)) {
        return [row, column]
      }
    }
  }
  return undefined
}

/**
 * The cursor as a person sees it: shown on one side and hidden on the other differs; where it is shown (or not
 * recorded, in captures made before REA recorded it), its position is compared; hidden on both, where it stands
 * is not seen and depends only on what was drawn last, so it is a note.
 */
function compareCursor(
  x: RetainedFrame,
  y: RetainedFrame,
  location: FrameLocation,
  label: string,
  findings: DimensionFindings,
): void {
  const samePlace = x.cursor.row === y.cursor.row && x.cursor.column === y.cursor.column
  const at = { ...location, row: x.cursor.row + 1, column: x.cursor.column + 1 }
  if (x.cursor.visible !== y.cursor.visible) {
    findings.differ(
      'terminal.frames.cursor',
      `${label} shows the cursor on one side only`,
      cursorValue(x.cursor),
      cursorValue(y.cursor),
      at,
    )
  } else if (x.cursor.visible === false) {
    if (!samePlace) {
      findings.note(
        `${label}: the cursor is hidden on both sides; where it stands (authority row ${x.cursor.row + 1}, column ${x.cursor.column + 1}; reconstruction row ${y.cursor.row + 1}, column ${y.cursor.column + 1}) is not compared at the screens level`,
      )
    }
  } else if (!samePlace) {
    findings.differ(
      'terminal.frames.cursor',
      `${label} has the cursor elsewhere`,
      cursorValue(x.cursor),
      cursorValue(y.cursor),
      at,
    )
  }
}
