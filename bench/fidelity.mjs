// Fidelity: REA's screens against tmux's for real full-screen programs. Each program runs twice, once captured by
// REA and once in a private tmux server (`tmux -L <unique name> -f /dev/null`, killed by that name when done),
// both 80×24 with TERM=xterm-256color and LANG=C.UTF-8, driven by the same steps: wait until the screen shows a
// text (or, with `wait: null`, until the program wrote something after the last step) and has been quiet for
// 300 ms, look at it, send the step's keys. At each such checkpoint REA's frame and
// tmux's pane (`capture-pane -e`, attributes included) are redrawn in one headless terminal under REA's width
// model and compared cell by cell as they look (the screens comparison's rule), with the cursor. The result is
// docs/fidelity.md's table; every difference it finds is explained there.
//
//   node bench/run.mjs fidelity            all programs (a missing one is skipped, with the reason printed)
//   FIDELITY_ONLY=vim,less node bench/run.mjs fidelity
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const SAMPLE = path.join(here, 'fidelity/sample.txt')
const COLUMNS = 80
const ROWS = 24
const QUIET_MS = 300
const WAIT_MS = 15_000
const ENVIRONMENT = { TERM: 'xterm-256color', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TMUX: null }

/**
 * Each program: the command, then steps (wait for this text on screen, or for new output when `wait` is null, then
 * send these bytes). A later screen often still shows the text an earlier one waited for, hence null.
 */
export const FIDELITY_CASES = [
  {
    name: 'vim',
    command: ['vim', '-N', '-u', 'NONE', '-i', 'NONE', '-n', SAMPLE],
    steps: [{ wait: 'fidelity sample', send: ':q!\r' }],
  },
  { name: 'less', command: ['less', SAMPLE], steps: [{ wait: 'box:', send: 'q' }] },
  { name: 'htop', command: ['htop'], steps: [{ wait: 'F10Quit', send: 'q' }] },
  { name: 'nano', command: ['nano', '-I', SAMPLE], steps: [{ wait: 'Exit', send: '\x18' }] },
  {
    name: 'mc',
    command: ['mc', '-u', '-X', '-d', here, here],
    steps: [{ wait: '10Quit', send: '\x1b[21~' }],
  },
  {
    name: 'fzf',
    command: ['sh', '-c', 'printf "alpha\\nbeta ✅\\ngamma 中\\n" | fzf'],
    steps: [{ wait: '3/3', send: '\x1b' }],
  },
  {
    name: 'dialog',
    command: ['dialog', '--msgbox', 'Hello from REA ✅ 中文', '8', '40'],
    steps: [{ wait: '<  OK  >', send: '\r' }],
  },
  {
    name: 'whiptail',
    command: ['whiptail', '--yesno', 'Continue? ✨', '8', '40'],
    steps: [{ wait: '<Yes>', send: '\r' }],
  },
  {
    name: 'python3 REPL',
    command: ['/usr/bin/python3', '-q'],
    steps: [
      { wait: '>>>', send: 'print("中文 ✅ \\x1b[1;31mred\\x1b[0m")\r' },
      { wait: null, send: 'exit()\r' },
    ],
  },
  {
    name: 'bash',
    command: ['bash', '--norc', '--noprofile', '-i'],
    environment: { PS1: '$ ' },
    steps: [
      { wait: '$', send: "printf '\\e[1;31mred\\e[0m ✅ 中 \\e[44m blue \\e[0m\\n'\r" },
      { wait: null, send: 'exit\r' },
    ],
  },
  {
    name: 'vttest menus',
    command: ['vttest'],
    steps: [
      { wait: 'Enter choice number', send: '1\r' },
      // The cursor-movement test: its 80-column screen, the same at 132 columns, then autowrap.
      { wait: null, send: '\r' },
      { wait: null, send: '\r' },
      { wait: null, send: '\r' },
    ],
  },
]

/** Runs every case (or those FIDELITY_ONLY names) and returns one result per case. */
export async function runFidelityBenchmark() {
  const { captureProcess } = await import(path.join(root, 'dist/index.js'))
  const internals = await import(path.join(root, 'dist/bench-internals.js'))
  const { replayScreen, cellAppearance } = internals
  describeCell = internals.describeCell
  const only = (process.env.FIDELITY_ONLY ?? '').split(',').filter((name) => name !== '')
  const results = []
  if (!available('tmux')) {
    return [{ name: 'all', skipped: 'tmux is not installed: apt-get install tmux' }]
  }
  for (const spec of FIDELITY_CASES.filter((entry) => only.length === 0 || only.includes(entry.name))) {
    if (!available(spec.command[0])) {
      results.push({ name: spec.name, skipped: `${spec.command[0]} is not installed` })
      console.log(`fidelity ${spec.name}: skipped, ${spec.command[0]} is not installed`)
      continue
    }
    const rea = await reaScreens(captureProcess, spec)
    const tmux = await tmuxScreens(spec)
    const checkpoints = spec.steps.map((step, index) =>
      compareCheckpoint(replayScreen, cellAppearance, step, rea[index], tmux[index]),
    )
    results.push({ name: spec.name, command: spec.command.join(' '), checkpoints })
    for (const [index, checkpoint] of checkpoints.entries()) {
      const waited = spec.steps[index].wait ?? 'new output'
      console.log(`fidelity ${spec.name} checkpoint ${index} (${waited}): ${describe(checkpoint)}`)
    }
  }
  return results
}

let describeCell = () => ''

function available(command) {
  return command.includes('/')
    ? existsSync(command)
    : spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0
}

/** REA's checkpoint frames before each step, as { state, cursor } (null where a wait ran out). */
async function reaScreens(captureProcess, spec) {
  const [executable, ...args] = spec.command
  const evidence = await captureProcess({
    executable,
    arguments: args,
    environment: { ...ENVIRONMENT, ...spec.environment },
    terminal: { columns: COLUMNS, rows: ROWS, scrollback: 0 },
    events: spec.steps.map((step) => ({
      type: 'input',
      data: step.send,
      after: {
        ...(step.wait === null ? { output_regex: '[\\s\\S]' } : { screen: step.wait }),
        quiet_ms: QUIET_MS,
        within_ms: WAIT_MS,
      },
    })),
    timeout_ms: WAIT_MS * (spec.steps.length + 1),
    normalization: { ports: false },
  })
  return spec.steps.map((_, index) => {
    const waited = evidence.interactions.find((interaction) => interaction.event_index === index)
    const frame = evidence.terminal.frames.find(
      (candidate) => candidate.trigger === 'before_event' && candidate.event_index === index,
    )
    return waited?.outcome !== 'dispatched' || frame?.status !== 'retained'
      ? null
      : { state: frame.serialized_state, cursor: frame.cursor }
  })
}

/** The same steps in a private tmux server; its pane at each checkpoint as { state, cursor }. */
async function tmuxScreens(spec) {
  const server = `rea-fidelity-${process.pid}-${Date.now()}`
  const tmux = (...args) =>
    execFileSync('tmux', ['-L', server, '-f', '/dev/null', ...args], { encoding: 'utf8' })
  const work = mkdtempSync(path.join(tmpdir(), 'rea-fidelity-'))
  const environment = { ...ENVIRONMENT, ...spec.environment }
  // env's options (-u) come before its assignments.
  const entries = Object.entries(environment)
  const assignments = [
    ...entries.flatMap(([name, value]) => (value === null ? ['-u', name] : [])),
    ...entries.flatMap(([name, value]) => (value === null ? [] : [`${name}=${value}`])),
  ]
  try {
    // default-terminal before the pane starts, so the program is told xterm-256color as under REA.
    tmux(
      'start-server',
      ';',
      'set',
      '-g',
      'default-terminal',
      'xterm-256color',
      ';',
      'new-session',
      '-d',
      '-x',
      String(COLUMNS),
      '-y',
      String(ROWS),
      '-c',
      work,
      'env',
      ...assignments,
      ...spec.command,
    )
    const screens = []
    let previous = ''
    for (const step of spec.steps) {
      const text = await settledPane(tmux, step.wait, previous)
      previous = text ?? ''
      if (text === null) {
        screens.push(null)
        break
      }
      const [x, y, shown] = tmux('display', '-p', '#{cursor_x} #{cursor_y} #{cursor_flag}').trim().split(' ')
      screens.push({
        // -N keeps trailing blanks (a coloured bar ends in them). tmux writes line-drawing cells between SO and SI,
        // expecting G1 to be DEC's line-drawing set, which it designates in its own terminal: so do we.
        state: `\x1b)0${tmux('capture-pane', '-p', '-e', '-N').replace(/\n$/, '').replaceAll('\n', '\r\n')}`,
        cursor: { row: Number(y), column: Number(x), visible: shown === '1' },
      })
      tmux('send-keys', '-H', ...[...Buffer.from(step.send)].map((byte) => byte.toString(16)))
    }
    return screens
  } finally {
    spawnSync('tmux', ['-L', server, '-f', '/dev/null', 'kill-server'], { stdio: 'ignore' })
    rmSync(work, { recursive: true, force: true })
  }
}

/**
 * Polls the pane until it shows `text` (with `text` null: until it differs from `previous`) and has not changed
 * for QUIET_MS; null when WAIT_MS runs out.
 */
async function settledPane(tmux, text, previous) {
  const deadline = performance.now() + WAIT_MS
  let last = ''
  let since = performance.now()
  while (performance.now() < deadline) {
    let pane
    let plain
    try {
      // Attributes too: a change of colour alone is a change; the text is looked for without them.
      pane = tmux('capture-pane', '-p', '-e')
      plain = tmux('capture-pane', '-p')
    } catch {
      return null // the pane is gone: the program exited
    }
    if (pane !== last) {
      last = pane
      since = performance.now()
    } else if (
      (text === null ? pane !== previous : plain.includes(text)) &&
      performance.now() - since >= QUIET_MS
    ) {
      return pane
    }
    await delay(25)
  }
  return null
}

function compareCheckpoint(replayScreen, cellAppearance, step, rea, tmux) {
  if (rea == null || tmux == null) {
    return { status: 'not_reached', side: rea == null ? 'rea' : 'tmux', wait: step.wait }
  }
  const redraw = (state) =>
    replayScreen({ columns: COLUMNS, rows: ROWS, scrollback: 0, state, widthModel: 'grapheme-clusters-v1' })
  const [a, b] = [redraw(rea.state), redraw(tmux.state)]
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
      if (erasedInTmux(cellAppearance, p[column], q[column])) {
        erased++
      } else {
        cells.push(column + 1)
      }
    }
    if (cells.length > 0) {
      const first = (cells[0] ?? 1) - 1
      rows.push({
        row: row + 1,
        columns: cells,
        rea: text(p),
        tmux: text(q),
        first_cell: { rea: describeCell(p[first]), tmux: describeCell(q[first]) },
      })
    }
  }
  const cursor =
    rea.cursor.row === tmux.cursor.row &&
    rea.cursor.column === tmux.cursor.column &&
    rea.cursor.visible === tmux.cursor.visible
      ? null
      : { rea: rea.cursor, tmux: tmux.cursor }
  return {
    status: rows.length === 0 && cursor === null ? 'equal' : 'different',
    rows,
    cursor,
    erased_background_cells: erased,
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

const text = (row) =>
  row
    .map(([chars, width]) => (width === 0 ? '' : chars === '' ? ' ' : chars))
    .join('')
    .trimEnd()

function describe(checkpoint) {
  if (checkpoint.status === 'not_reached') {
    return `${checkpoint.side} never showed ${checkpoint.wait === null ? 'new output' : `"${checkpoint.wait}"`}`
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
