import type { Terminal } from '@xterm/xterm'
import { redrawableState } from '../../screen/frame-state.js'
import type { CheckpointStatus, PageCheckpoint, PageData, PageFrame, PageSide } from '../page-data.js'
import { cellDifference, keysAt, type CellDifference } from './cell-difference.js'
import { element, requiredElement } from './page-elements.js'
import { overlayFor } from './screen-overlay.js'
import { openTerminal } from './terminals.js'

/** A run of differing cells: zero-based row and column, its width in cells, and how its cells differ. */
type CellRun = readonly [row: number, column: number, width: number, kind: CellDifference]

const STATUS_WORDS: Record<CheckpointStatus, string> = {
  equal: 'screens equal',
  different: 'screens differ',
  unknown: 'not rendered on a side',
  one_side: 'on one side only',
  single: '',
}

const RUN_CLASSES: Record<CellDifference, string> = {
  visible: 'rea-diff-cell',
  blank: 'rea-diff-cell rea-diff-blank',
  spelling: 'rea-diff-cell rea-diff-spelling',
}

/** Frames a browser may take to lay out and draw the screens before the overlays are placed regardless. */
const MAX_LAYOUT_FRAMES = 600

/**
 * The checkpoint screens. One checkpoint is rendered at a time: both sides' frames are written into fresh xterm.js
 * terminals, cells are compared through xterm's buffer API (characters, width, colours and attributes), and each
 * differing run of cells gets an overlay: outlined when it looks different, dashed when only blanks differ (a space
 * written on one side, an untouched cell on the other), dotted when only the spelling of the same look differs
 * (`ESC [31m` against `ESC [38;5;1m`). Overlays are placed only once both screens are laid out and drawn, so they
 * land on their cells whenever the browser paints. `document.body.dataset.reaRendered` turns "true" when the shown
 * checkpoint is complete.
 */
export function startCheckpointScreens(data: PageData): void {
  const section = document.getElementById('screens')
  if (section === null || data.checkpoints.length === 0) {
    return
  }
  const slider = requiredElement('rea-checkpoint', HTMLInputElement)
  const label = requiredElement('rea-checkpoint-label', HTMLElement)
  const detail = requiredElement('rea-checkpoint-detail', HTMLElement)
  const list = requiredElement('rea-checkpoint-list', HTMLElement)
  const panes = requiredElement('rea-screens', HTMLElement)
  const last = data.checkpoints.length - 1
  let shown = -1
  let terminals: (Terminal | null)[] = []

  const buttons = data.checkpoints.map((checkpoint, index) => {
    const button = element(
      'button',
      { type: 'button', class: checkpoint.status, 'data-index': String(index) },
      checkpoint.label,
    )
    button.addEventListener('click', () => show(index))
    const item = element('li')
    item.append(button)
    list.append(item)
    return button
  })
  slider.max = String(last)
  slider.addEventListener('input', () => show(Number(slider.value)))
  requiredElement('rea-checkpoint-previous', HTMLElement).addEventListener('click', () =>
    show(Math.max(0, shown - 1)),
  )
  requiredElement('rea-checkpoint-next', HTMLElement).addEventListener('click', () =>
    show(Math.min(last, shown + 1)),
  )

  function show(index: number): void {
    shown = index
    for (const terminal of terminals) {
      terminal?.dispose()
    }
    terminals = []
    panes.textContent = ''
    document.body.dataset['reaRendered'] = 'false'
    const checkpoint = data.checkpoints[index]
    if (checkpoint === undefined) {
      return
    }
    slider.value = String(index)
    const words = STATUS_WORDS[checkpoint.status]
    label.textContent = checkpoint.label + (words === '' ? '' : ` (${words})`)
    buttons.forEach((button, other) => button.setAttribute('aria-current', String(other === index)))
    const frames = data.sides.map((side) => side.frames[index])
    const rendering = data.sides.map((side, position) => renderFrame(panes, side, frames[position]))
    void Promise.all(rendering).then((rendered) => {
      if (shown !== index) {
        return
      }
      terminals = rendered
      whenDrawn(rendered, () => {
        if (shown !== index) {
          return
        }
        const runs = highlight(rendered, frames, checkpoint)
        detail.textContent = [checkpoint.detail, describeRuns(runs, checkpoint)].filter(Boolean).join('; ')
        document.body.dataset['reaCheckpoint'] = String(index)
        // One more frame, so the overlays are painted before anyone is told the checkpoint is complete.
        requestAnimationFrame(() => {
          if (shown === index) {
            document.body.dataset['reaRendered'] = 'true'
          }
        })
      })
    })
  }

  show(data.initial_checkpoint)
}

/** Calls done once every terminal's screen has a size and its rows are in the page (xterm draws on a frame). */
function whenDrawn(rendered: readonly (Terminal | null)[], done: () => void, frames = 0): void {
  const drawn = rendered.every((terminal) => {
    if (terminal === null) {
      return true
    }
    const box = terminal.element?.querySelector('.xterm-screen')?.getBoundingClientRect()
    const rows = terminal.element?.querySelector('.xterm-rows')
    return (
      box !== undefined &&
      box.width > 0 &&
      box.height > 0 &&
      rows !== null &&
      rows !== undefined &&
      rows.children.length >= terminal.rows
    )
  })
  if (drawn || frames > MAX_LAYOUT_FRAMES) {
    done()
  } else {
    requestAnimationFrame(() => whenDrawn(rendered, done, frames + 1))
  }
}

function describeRuns(runs: readonly CellRun[], checkpoint: PageCheckpoint): string {
  if (checkpoint.status !== 'different') {
    return ''
  }
  const count = (kind: CellDifference): number => runs.filter((run) => run[3] === kind).length
  const visible = count('visible')
  const words: string[] = []
  if (visible > 0) {
    words.push(`${visible}${visible === 1 ? ' run of cells differs' : ' runs of cells differ'}`)
  }
  const blank = count('blank')
  if (blank > 0) {
    words.push(
      `${blank}${blank === 1 ? ' run' : ' runs'} of blank cells differ (spaces written on one side only, invisible on screen; marked with dashes)`,
    )
  }
  if (visible === 0 && checkpoint.spellings !== null) {
    words.push(
      `the same on screen, only the escape sequences differ: authority ${checkpoint.spellings[0]}, reconstruction ${checkpoint.spellings[1]}`,
    )
  }
  return words.join('; ')
}

function renderFrame(
  panes: HTMLElement,
  side: PageSide,
  frame: PageFrame | undefined,
): Promise<Terminal | null> {
  const pane = element('div', { class: 'pane', 'data-side': side.label })
  const size =
    frame?.status === 'retained'
      ? `${frame.columns}×${frame.rows}, cursor ${frame.cursor[0] + 1},${frame.cursor[1] + 1}`
      : ''
  const heading = element('h3', {}, `${side.label} `)
  heading.append(element('small', {}, size))
  pane.append(heading)
  panes.append(pane)
  if (frame === undefined) {
    pane.append(element('p', { class: 'absent' }, 'No such checkpoint on this side.'))
    return Promise.resolve(null)
  }
  if (frame.status !== 'retained') {
    pane.append(
      element('p', { class: 'absent' }, `Not rendered during the capture (${String(frame.reason)}).`),
    )
    return Promise.resolve(null)
  }
  const host = element('div', { class: 'term-host' })
  pane.append(host)
  const terminal = openTerminal(host, side.terminal, frame.columns, frame.rows)
  return new Promise((resolve) => terminal.write(redrawableState(frame.state), () => resolve(terminal)))
}

/** Marks every run of differing cells on both sides, by kind; returns the runs. */
function highlight(
  rendered: readonly (Terminal | null)[],
  frames: readonly (PageFrame | undefined)[],
  checkpoint: PageCheckpoint,
): CellRun[] {
  const [a, b] = rendered
  const [frameA, frameB] = frames
  // Screens the comparison found equal are serialized alike: any cell difference left is xterm's bookkeeping.
  if (
    rendered.length !== 2 ||
    a == null ||
    b == null ||
    frameA === undefined ||
    frameB === undefined ||
    checkpoint.status !== 'different'
  ) {
    return []
  }
  const runs = differingRuns(a, b)
  const first = checkpoint.cell
  const cursorsDiffer = frameA.cursor[0] !== frameB.cursor[0] || frameA.cursor[1] !== frameB.cursor[1]
  for (const [terminal, frame] of [
    [a, frameA],
    [b, frameB],
  ] as const) {
    const overlay = overlayFor(terminal)
    for (const [row, column, width, kind] of runs) {
      const isFirst =
        first !== null && first[0] === row + 1 && first[1] >= column + 1 && first[1] <= column + width
      overlay.add(RUN_CLASSES[kind] + (isFirst ? ' rea-first' : ''), row, column, width)
    }
    if (cursorsDiffer) {
      overlay.add('rea-diff-cursor', frame.cursor[0], frame.cursor[1], 1)
    }
  }
  return runs
}

/** The runs of cells, row by row, that differ between the two screens, each with how its cells differ. */
function differingRuns(a: Terminal, b: Terminal): CellRun[] {
  const rows = Math.max(a.rows, b.rows)
  const columns = Math.max(a.cols, b.cols)
  const scratchA = a.buffer.active.getNullCell()
  const scratchB = b.buffer.active.getNullCell()
  const runs: CellRun[] = []
  for (let row = 0; row < rows; row++) {
    let start = -1
    let kind: CellDifference | null = null
    for (let column = 0; column <= columns; column++) {
      const differs =
        column < columns
          ? cellDifference(keysAt(a, row, column, scratchA), keysAt(b, row, column, scratchB))
          : null
      if (differs !== kind && start !== -1 && kind !== null) {
        runs.push([row, start, column - start, kind])
        start = -1
      }
      if (differs !== null && start === -1) {
        start = column
      }
      kind = differs
    }
  }
  return runs
}
