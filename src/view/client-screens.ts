/**
 * The page's script for the checkpoint screens (browser JavaScript, inlined as text). One checkpoint is
 * rendered at a time: both sides' frames are written into fresh xterm.js terminals, cells are compared through
 * xterm's buffer API (characters, width, colours and attributes), and each differing run of cells gets an
 * overlay: outlined when it looks different, dashed when only blanks differ (a space written on one side, an
 * untouched cell on the other), dotted when only the spelling of the same look differs (`ESC [31m` against
 * `ESC [38;5;1m`). Overlays are placed in fractions of the screen, inside xterm's screen element, and only once
 * both screens are laid out and drawn, so they land on their cells whenever the browser paints.
 * `document.body.dataset.reaRendered` turns "true" when the shown checkpoint is complete.
 */
export const SCREENS_SCRIPT = String.raw`
const REA = (window.REA = window.REA || {})
REA.data = JSON.parse(document.getElementById('rea-page-data').textContent)
REA.terminalOptions = (columns, rows, scrollback) => ({
  cols: columns, rows: rows, scrollback: scrollback, disableStdin: true, cursorBlink: false, allowProposedApi: true,
  fontFamily: '"DejaVu Sans Mono", Menlo, Consolas, monospace', fontSize: 13, lineHeight: 1,
})
// Frames are redrawn with the widths they were rendered with (REA's grapheme-cluster model, or xterm's own
// Unicode 6 tables for captures made before it had a name).
REA.applyWidthModel = (terminal, sideTerminal) => {
  if (sideTerminal.width_model === 'grapheme-clusters-v1' && window.UnicodeGraphemesAddon) {
    terminal.loadAddon(new window.UnicodeGraphemesAddon.UnicodeGraphemesAddon())
  }
}
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
      whenDrawn(rendered, () => {
        if (shown !== index) return
        const runs = highlight(rendered, frames, checkpoint)
        detail.textContent = [checkpoint.detail, describeRuns(runs, checkpoint)].filter(Boolean).join('; ')
        document.body.dataset.reaCheckpoint = String(index)
        // One more frame, so the overlays are painted before anyone is told the checkpoint is complete.
        requestAnimationFrame(() => {
          if (shown === index) document.body.dataset.reaRendered = 'true'
        })
      })
    })
  }

  /** Calls done once every terminal's screen has a size and its rows are in the page (xterm draws on a frame). */
  function whenDrawn(rendered, done, frames = 0) {
    const drawn = rendered.every((terminal) => {
      if (!terminal) return true
      const screen = terminal.element.querySelector('.xterm-screen')
      const rows = terminal.element.querySelector('.xterm-rows')
      const box = screen && screen.getBoundingClientRect()
      return box && box.width > 0 && box.height > 0 && rows && rows.children.length >= terminal.rows
    })
    if (drawn || frames > 600) done()
    else requestAnimationFrame(() => whenDrawn(rendered, done, frames + 1))
  }

  function describeRuns(runs, checkpoint) {
    if (checkpoint.status !== 'different') return ''
    const count = (kind) => runs.filter((run) => run[3] === kind).length
    const visible = count('visible')
    const words = []
    if (visible > 0) words.push(visible + (visible === 1 ? ' run of cells differs' : ' runs of cells differ'))
    const blank = count('blank')
    if (blank > 0) words.push(blank + (blank === 1 ? ' run' : ' runs') + ' of blank cells differ (spaces written on one side only, invisible on screen; marked with dashes)')
    if (visible === 0 && checkpoint.spellings) {
      words.push('the same on screen, only the escape sequences differ: authority ' + checkpoint.spellings[0] + ', reconstruction ' + checkpoint.spellings[1])
    }
    return words.join('; ')
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
    REA.applyWidthModel(terminal, side.terminal)
    terminal.open(host)
    return new Promise((resolve) => terminal.write(frame.state, () => resolve(terminal)))
  }

  const ATTRIBUTES = (cell) => [cell.getWidth(), cell.isBold(), cell.isItalic(), cell.isDim(), cell.isUnderline(),
    cell.isBlink(), cell.isInverse(), cell.isInvisible(), cell.isStrikethrough(), cell.isOverline()]
  // A cell as it looks, as REA's screens comparison reads it (src/compare/cell-appearance.ts): a blank shows only
  // its background and the lines across it, inverse video swaps the colours, a 16- and a 256-colour index agree.
  function colour(isDefault, isRgb, value, name) {
    return isDefault ? name : (isRgb ? '#' : '') + value
  }
  function cellKey(cell) {
    if (cell.getWidth() === 0) return ''
    let foreground = colour(cell.isFgDefault(), cell.isFgRGB(), cell.getFgColor(), 'fg')
    let background = colour(cell.isBgDefault(), cell.isBgRGB(), cell.getBgColor(), 'bg')
    if (cell.isInverse()) [foreground, background] = [background, foreground]
    const lines = [cell.isUnderline(), cell.isStrikethrough(), cell.isOverline()].map(Boolean).join()
    const chars = cell.getChars()
    if (chars === '' || chars === ' ' || cell.isInvisible()) return ['blank', background, lines, foreground].join('\u0000')
    return [chars, cell.getWidth(), foreground, background, lines, Boolean(cell.isBold()), Boolean(cell.isDim()),
      Boolean(cell.isItalic()), Boolean(cell.isBlink())].join('\u0000')
  }

  /** How a cell looks (as REA's screens comparison reads it), exactly how it was written, and its characters. */
  function cellKeys(cell) {
    const exact = [cell.getChars(), cell.getFgColorMode(), cell.getFgColor(), cell.getBgColorMode(),
      cell.getBgColor(), ...ATTRIBUTES(cell)].join('\u0000')
    return [cellKey(cell), exact, cell.getChars()]
  }

  function keysAt(terminal, row, column, scratch) {
    if (!terminal || row >= terminal.rows || column >= terminal.cols) return [null, null, null]
    const buffer = terminal.buffer.active
    const line = buffer.getLine(buffer.viewportY + row)
    const cell = line && line.getCell(column, scratch)
    return cell ? cellKeys(cell) : ['', '', '']
  }

  /** Whether two cells differ, and how: 'visible', 'blank' (a written space against nothing), 'spelling', or null. */
  function difference(p, q) {
    if (p[0] !== q[0]) return 'visible'
    if (p[1] === q[1]) return null
    return p[2] !== q[2] && (p[2] === '' || p[2] === ' ') && (q[2] === '' || q[2] === ' ') ? 'blank' : 'spelling'
  }

  /** Marks every run of differing cells on both sides, by kind; returns the runs [row, column, width, kind]. */
  function highlight(rendered, frames, checkpoint) {
    // Screens the comparison found equal are serialized alike: any cell difference left is xterm's bookkeeping.
    if (rendered.length !== 2 || !rendered[0] || !rendered[1] || checkpoint.status !== 'different') return []
    const [a, b] = rendered
    const rows = Math.max(a.rows, b.rows)
    const columns = Math.max(a.cols, b.cols)
    const scratchA = a.buffer.active.getNullCell()
    const scratchB = b.buffer.active.getNullCell()
    const runs = []
    for (let row = 0; row < rows; row++) {
      let start = -1
      let kind = null
      for (let column = 0; column <= columns; column++) {
        const differs = column < columns ? difference(keysAt(a, row, column, scratchA), keysAt(b, row, column, scratchB)) : null
        if (differs !== kind && start !== -1) {
          runs.push([row, start, column - start, kind])
          start = -1
        }
        if (differs !== null && start === -1) start = column
        kind = differs
      }
    }
    const first = checkpoint.cell
    const CLASSES = { visible: 'rea-diff-cell', blank: 'rea-diff-cell rea-diff-blank', spelling: 'rea-diff-cell rea-diff-spelling' }
    for (const [position, terminal] of rendered.entries()) {
      const overlay = overlayFor(terminal)
      for (const [row, column, width, kind] of runs) {
        const isFirst = first !== null && first[0] === row + 1 && first[1] >= column + 1 && first[1] <= column + width
        overlay.add(CLASSES[kind] + (isFirst ? ' rea-first' : ''), row, column, width)
      }
      const [cursorA, cursorB] = [frames[0].cursor, frames[1].cursor]
      if (cursorA[0] !== cursorB[0] || cursorA[1] !== cursorB[1]) {
        const cursor = frames[position].cursor
        overlay.add('rea-diff-cursor', cursor[0], cursor[1], 1)
      }
    }
    return runs
  }

  /**
   * Boxes over a terminal's cell grid, inside its screen element and placed in fractions of it: nothing is
   * measured, so a box never lands where a screen not yet laid out put it.
   */
  function overlayFor(terminal) {
    const screen = terminal.element.querySelector('.xterm-screen')
    const overlay = REA.element('div', { class: 'rea-overlay' })
    screen.append(overlay)
    const percent = (part, whole) => (100 * part) / whole + '%'
    return {
      add(className, row, column, width) {
        const box = REA.element('div', { class: className, 'data-row': String(row + 1), 'data-column': String(column + 1), 'data-width': String(width) })
        box.style.left = percent(column, terminal.cols)
        box.style.top = percent(row, terminal.rows)
        box.style.width = percent(width, terminal.cols)
        box.style.height = percent(1, terminal.rows)
        overlay.append(box)
      },
    }
  }

  show(data.initial_checkpoint)
})()
`
