// How bench/fidelity.mjs compares two screens: each redrawn in one headless terminal under REA's width model and
// compared cell by cell as they look (the screens comparison's rule), with the cursor; and how it shows them.
export const COLUMNS = 80
export const ROWS = 24

/**
 * Compares two checkpoint screens ({ state, cursor }, null where a side never got there). `erasedIsEqual`: a
 * cell tmux's capture-pane writes without the background the program erased it with counts apart (see
 * erasedInTmux); between two REA captures there is no such cell.
 */
export function compareCheckpoint(internals, step, first, second, erasedIsEqual = true) {
  const { replayScreen, cellAppearance, describeCell } = internals
  if (first == null || second == null) {
    return { status: 'not_reached', side: first == null ? 'rea' : 'tmux', wait: step.wait }
  }
  const redraw = (state) =>
    replayScreen({ columns: COLUMNS, rows: ROWS, scrollback: 0, state, widthModel: 'grapheme-clusters-v1' })
  const [a, b] = [redraw(first.state), redraw(second.state)]
  const rows = []
  let erased = 0
  for (let row = 0; row < ROWS; row++) {
    const p = a.rows[row] ?? []
    const q = b.rows[row] ?? []
    const cells = []
    for (let column = 0; column < COLUMNS; column++) {
      if (cellAppearance(p[column]) === cellAppearance(q[column])) {
        continue
      }
      if (erasedIsEqual && erasedInTmux(cellAppearance, p[column], q[column])) {
        erased++
      } else {
        cells.push(column + 1)
      }
    }
    if (cells.length > 0) {
      const index = (cells[0] ?? 1) - 1
      rows.push({
        row: row + 1,
        columns: cells,
        rea: text(p),
        tmux: text(q),
        first_cell: { rea: describeCell(p[index]), tmux: describeCell(q[index]) },
      })
    }
  }
  // As the screens comparison does: a cursor hidden on both sides is not seen, so its position is not compared.
  const hiddenOnBoth = first.cursor.visible === false && second.cursor.visible === false
  const cursor =
    first.cursor.visible === second.cursor.visible &&
    (hiddenOnBoth || (first.cursor.row === second.cursor.row && first.cursor.column === second.cursor.column))
      ? null
      : { rea: first.cursor, tmux: second.cursor }
  return {
    status: rows.length === 0 && cursor === null ? 'equal' : 'different',
    rows,
    cursor,
    erased_background_cells: erased,
    screens: { rea: a.rows.map(wholeRow), tmux: b.rows.map(wholeRow) },
  }
}

/**
 * A cell the program erased with a background colour (`ESC [ 44 m` then `ESC [ K`, xterm's bce), which tmux shows
 * coloured but its capture-pane writes without the colour: REA's cell is a blank with a background, tmux's a
 * plain blank. Counted apart: it says nothing about either terminal's screen.
 */
function erasedInTmux(cellAppearance, rea, tmux) {
  return (
    rea !== undefined &&
    tmux !== undefined &&
    cellAppearance(rea).startsWith('blank|') &&
    cellAppearance(tmux) === 'blank|bg:bg'
  )
}

/** A row's text, every cell of it: a wide character's second cell adds nothing, so the row is COLUMNS wide. */
const wholeRow = (row) =>
  row.map(([chars, width]) => (width === 0 ? '' : chars === '' ? ' ' : chars)).join('')
const text = (row) => wholeRow(row).trimEnd()

/** One line per result, with each differing row of both sides and its first differing cell. */
export function describe(checkpoint) {
  if (checkpoint.status === 'not_reached') {
    return `${checkpoint.side} never showed ${waitWords(checkpoint.wait)}`
  }
  const erased =
    checkpoint.erased_background_cells === 0
      ? ''
      : ` (${checkpoint.erased_background_cells} erased cells whose background tmux's capture leaves out)`
  if (checkpoint.status === 'equal') {
    return `equal${erased}`
  }
  const rows = checkpoint.rows.map(
    (row) =>
      `\n    row ${row.row} (columns ${compactColumns(row.columns)}; first: rea ${row.first_cell.rea}, tmux ${row.first_cell.tmux}):\n      rea  ${JSON.stringify(row.rea)}\n      tmux ${JSON.stringify(row.tmux)}`,
  )
  const cursor =
    checkpoint.cursor === null
      ? ''
      : `\n    cursor: rea ${JSON.stringify(checkpoint.cursor.rea)}, tmux ${JSON.stringify(checkpoint.cursor.tmux)}`
  return `different${erased}${rows.join('')}${cursor}`
}

export function waitWords(wait) {
  if (wait === null) {
    return 'new output'
  }
  return typeof wait === 'object' ? `${wait.quiet} ms without output` : `"${wait}"`
}

/** Both screens of a checkpoint side by side, REA left and tmux right, a `≠` between rows that differ. */
export function sideBySide(title, checkpoint) {
  const lines = [`== ${title}: ${checkpoint.status}`]
  if (checkpoint.screens === undefined) {
    return lines.join('\n')
  }
  const differing = new Set(checkpoint.rows.map((row) => row.row))
  lines.push(`${'REA'.padEnd(COLUMNS)} | tmux`)
  for (let row = 0; row < ROWS; row++) {
    const left = checkpoint.screens.rea[row] ?? ' '.repeat(COLUMNS)
    const right = (checkpoint.screens.tmux[row] ?? '').trimEnd()
    lines.push(`${left} ${differing.has(row + 1) ? '≠' : '|'} ${right}`)
  }
  return lines.join('\n')
}

/** 1,2,3,7,8 as 1-3,7-8. */
function compactColumns(columns) {
  const runs = []
  for (const column of columns) {
    const last = runs.at(-1)
    if (last !== undefined && last[1] === column - 1) {
      last[1] = column
    } else {
      runs.push([column, column])
    }
  }
  return runs.map(([from, to]) => (from === to ? `${from}` : `${from}-${to}`)).join(',')
}
