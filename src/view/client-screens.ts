/**
 * The page's script for the checkpoint screens (browser JavaScript, inlined as text). One checkpoint is
 * rendered at a time: both sides' frames are written into fresh xterm.js terminals, cells are compared through
 * xterm's buffer API (characters, width, colours and attributes), and each differing run of cells gets an
 * outlined overlay. `document.body.dataset.reaRendered` turns "true" when the shown checkpoint is complete.
 */
export const SCREENS_SCRIPT = String.raw`
const REA = (window.REA = window.REA || {})
REA.data = JSON.parse(document.getElementById('rea-page-data').textContent)
REA.terminalOptions = (columns, rows, scrollback) => ({
  cols: columns, rows: rows, scrollback: scrollback, disableStdin: true, cursorBlink: false, allowProposedApi: true,
  fontFamily: '"DejaVu Sans Mono", Menlo, Consolas, monospace', fontSize: 13, lineHeight: 1,
})
REA.element = (tag, attributes, text) => {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes || {})) element.setAttribute(name, value)
  if (text !== undefined) element.textContent = text
  return element
}

;(() => {
  const data = REA.data
  const section = document.getElementById('screens')
  if (!section || data.checkpoints.length === 0) return
  const slider = document.getElementById('rea-checkpoint')
  const label = document.getElementById('rea-checkpoint-label')
  const detail = document.getElementById('rea-checkpoint-detail')
  const list = document.getElementById('rea-checkpoint-list')
  const panes = document.getElementById('rea-screens')
  const buttons = data.checkpoints.map((checkpoint, index) => {
    const button = REA.element('button', { type: 'button', class: checkpoint.status, 'data-index': String(index) }, checkpoint.label)
    button.addEventListener('click', () => show(index))
    const item = REA.element('li')
    item.append(button)
    list.append(item)
    return button
  })
  slider.max = String(data.checkpoints.length - 1)
  slider.addEventListener('input', () => show(Number(slider.value)))
  document.getElementById('rea-checkpoint-previous').addEventListener('click', () => show(Math.max(0, shown - 1)))
  document.getElementById('rea-checkpoint-next').addEventListener('click', () => show(Math.min(data.checkpoints.length - 1, shown + 1)))

  const STATUS_WORDS = { equal: 'screens equal', different: 'screens differ', unknown: 'not rendered on a side', one_side: 'on one side only', single: '' }
  let shown = -1
  let terminals = []
  function show(index) {
    shown = index
    for (const terminal of terminals) if (terminal) terminal.dispose()
    terminals = []
    panes.textContent = ''
    document.body.dataset.reaRendered = 'false'
    const checkpoint = data.checkpoints[index]
    slider.value = String(index)
    label.textContent = checkpoint.label + (STATUS_WORDS[checkpoint.status] ? ' (' + STATUS_WORDS[checkpoint.status] + ')' : '')
    buttons.forEach((button, other) => button.setAttribute('aria-current', String(other === index)))
    const frames = data.sides.map((side) => side.frames[index])
    const rendering = data.sides.map((side, position) => renderFrame(side, frames[position]))
    Promise.all(rendering).then((rendered) => {
      if (shown !== index) return
      terminals = rendered
      requestAnimationFrame(() => requestAnimationFrame(() => {
        if (shown !== index) return
        const cells = highlight(rendered, frames, checkpoint)
        const words = checkpoint.status === 'different' ? cells + (cells === 1 ? ' run of cells differs' : ' runs of cells differ') : ''
        detail.textContent = [checkpoint.detail, words].filter(Boolean).join('; ')
        document.body.dataset.reaCheckpoint = String(index)
        document.body.dataset.reaRendered = 'true'
      }))
    })
  }

  function renderFrame(side, frame) {
    const pane = REA.element('div', { class: 'pane', 'data-side': side.label })
    const size = frame && frame.status === 'retained' ? frame.columns + '×' + frame.rows + ', cursor ' + (frame.cursor[0] + 1) + ',' + (frame.cursor[1] + 1) : ''
    const heading = REA.element('h3', {}, side.label + ' ')
    heading.append(REA.element('small', {}, size))
    pane.append(heading)
    panes.append(pane)
    if (!frame) {
      pane.append(REA.element('p', { class: 'absent' }, 'No such checkpoint on this side.'))
      return Promise.resolve(null)
    }
    if (frame.status !== 'retained') {
      pane.append(REA.element('p', { class: 'absent' }, 'Not rendered during the capture (' + frame.reason + ').'))
      return Promise.resolve(null)
    }
    const host = REA.element('div', { class: 'term-host' })
    pane.append(host)
    const terminal = new Terminal(REA.terminalOptions(frame.columns, frame.rows, side.terminal.scrollback))
    terminal.open(host)
    return new Promise((resolve) => terminal.write(frame.state, () => resolve(terminal)))
  }

  function cellKey(cell) {
    return [cell.getChars(), cell.getWidth(), cell.getFgColorMode(), cell.getFgColor(), cell.getBgColorMode(),
      cell.getBgColor(), cell.isBold(), cell.isItalic(), cell.isDim(), cell.isUnderline(), cell.isBlink(),
      cell.isInverse(), cell.isInvisible(), cell.isStrikethrough(), cell.isOverline()].join('\u0000')
  }

  function keyAt(terminal, row, column, scratch) {
    if (!terminal || row >= terminal.rows || column >= terminal.cols) return null
    const buffer = terminal.buffer.active
    const line = buffer.getLine(buffer.viewportY + row)
    const cell = line && line.getCell(column, scratch)
    return cell ? cellKey(cell) : ''
  }

  /** Outlines every run of differing cells on both sides; returns how many runs there are. */
  function highlight(rendered, frames, checkpoint) {
    if (rendered.length !== 2 || !rendered[0] || !rendered[1]) return 0
    const [a, b] = rendered
    const rows = Math.max(a.rows, b.rows)
    const columns = Math.max(a.cols, b.cols)
    const scratchA = a.buffer.active.getNullCell()
    const scratchB = b.buffer.active.getNullCell()
    const runs = []
    for (let row = 0; row < rows; row++) {
      let start = -1
      for (let column = 0; column <= columns; column++) {
        const differs = column < columns && keyAt(a, row, column, scratchA) !== keyAt(b, row, column, scratchB)
        if (differs && start === -1) start = column
        if (!differs && start !== -1) {
          runs.push([row, start, column - start])
          start = -1
        }
      }
    }
    const first = checkpoint.cell
    for (const [position, terminal] of rendered.entries()) {
      const overlay = overlayFor(terminal)
      for (const [row, column, width] of runs) {
        const isFirst = first !== null && first[0] === row + 1 && first[1] >= column + 1 && first[1] <= column + width
        overlay.add('rea-diff-cell' + (isFirst ? ' rea-first' : ''), row, column, width)
      }
      const [cursorA, cursorB] = [frames[0].cursor, frames[1].cursor]
      if (cursorA[0] !== cursorB[0] || cursorA[1] !== cursorB[1]) {
        const cursor = frames[position].cursor
        overlay.add('rea-diff-cursor', cursor[0], cursor[1], 1)
      }
    }
    return runs.length
  }

  /** Absolutely positioned outlines over a terminal's cell grid, measured from its rendered screen. */
  function overlayFor(terminal) {
    const host = terminal.element.parentElement
    const screen = terminal.element.querySelector('.xterm-screen')
    const hostBox = host.getBoundingClientRect()
    const screenBox = screen.getBoundingClientRect()
    const cellWidth = screenBox.width / terminal.cols
    const cellHeight = screenBox.height / terminal.rows
    const overlay = REA.element('div', { class: 'rea-overlay' })
    overlay.style.left = screenBox.left - hostBox.left + 'px'
    overlay.style.top = screenBox.top - hostBox.top + 'px'
    host.append(overlay)
    return {
      add(className, row, column, width) {
        const box = REA.element('div', { class: className, 'data-row': String(row + 1), 'data-column': String(column + 1), 'data-width': String(width) })
        box.style.left = column * cellWidth + 'px'
        box.style.top = row * cellHeight + 'px'
        box.style.width = width * cellWidth + 'px'
        box.style.height = cellHeight + 'px'
        overlay.append(box)
      },
    }
  }

  show(data.initial_checkpoint)
})()
`
