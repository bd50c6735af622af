// Fidelity: REA's screens against tmux's for real terminal programs (bench/fidelity/cases.mjs). Each program runs
// FIDELITY_RUNS times captured by REA (default 3) and once in a private tmux server (`tmux -L <unique name> -f
// /dev/null`, killed by that name when done), all 80×24 with TERM=xterm-256color and LANG=C.UTF-8, in the same
// fresh folder, driven by the same steps. REA waits as a scenario would, with its default settle; tmux's pane is
// polled until it shows what the step waits for and has not changed for 300 ms. At each checkpoint (before a
// step's input) the first REA capture is compared with tmux, and every later capture with the first, cell by
// cell as they look (bench/fidelity/compare-screens.mjs). Both screens of every checkpoint are written side by
// side to bench/results/fidelity/. The result is docs/fidelity.md's table; every difference is explained there.
//
//   node bench/run.mjs fidelity            all programs (a missing one is skipped, with the reason printed)
//   FIDELITY_ONLY=vim,less node bench/run.mjs fidelity
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { FIDELITY_CASES } from './fidelity/cases.mjs'
import { removeTmuxServer } from './tmux-server.mjs'
import {
  COLUMNS,
  ROWS,
  compareCheckpoint,
  describe,
  sideBySide,
  waitWords,
} from './fidelity/compare-screens.mjs'

export { FIDELITY_CASES }

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const TMUX_QUIET_MS = 300
const WAIT_MS = 15_000
const ENVIRONMENT = { TERM: 'xterm-256color', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TMUX: null }

/** Runs every case (or those FIDELITY_ONLY names) and returns one result per case. */
export async function runFidelityBenchmark() {
  const { captureProcess } = await import(path.join(root, 'dist/index.js'))
  const internals = await import(path.join(root, 'dist/bench-internals.js'))
  const only = (process.env.FIDELITY_ONLY ?? '').split(',').filter((name) => name !== '')
  const runs = Number(process.env.FIDELITY_RUNS ?? 3)
  const output = path.join(here, 'results/fidelity')
  mkdirSync(output, { recursive: true })
  if (!available('tmux')) {
    return [{ name: 'all', skipped: 'tmux is not installed: apt-get install tmux' }]
  }
  const results = []
  for (const spec of FIDELITY_CASES.filter((entry) => only.length === 0 || only.includes(entry.name))) {
    if (!available(spec.command[0])) {
      results.push({ name: spec.name, skipped: `${spec.command[0]} is not installed` })
      console.log(`fidelity ${spec.name}: skipped, ${spec.command[0]} is not installed`)
      continue
    }
    const place = new Place(spec)
    try {
      const rea = []
      for (let run = 0; run < runs; run++) {
        rea.push(await reaScreens(captureProcess, spec, place.fresh()))
      }
      const tmux = await tmuxScreens(internals, spec, place.fresh())
      results.push(report(internals, spec, rea, tmux, output))
    } finally {
      place.remove()
    }
  }
  return results
}

/** One case's results: its checkpoints against tmux, how many REA runs showed the first one's screens. */
function report(internals, spec, rea, tmux, output) {
  const [first, ...others] = rea
  const checkpoints = spec.steps.map((step, index) =>
    compareCheckpoint(internals, step, first[index], tmux[index]),
  )
  const consistent =
    1 +
    others.filter((run) =>
      spec.steps.every(
        (step, index) =>
          compareCheckpoint(internals, step, first[index], run[index], false).status === 'equal',
      ),
    ).length
  const slug = spec.name.replaceAll(/[^a-z0-9]+/gi, '-').toLowerCase()
  writeFileSync(
    path.join(output, `${slug}.txt`),
    `${checkpoints.map((checkpoint, index) => sideBySide(`${spec.name}, checkpoint ${index} (${waitWords(spec.steps[index].wait)})`, checkpoint)).join('\n\n')}\n`,
  )
  console.log(`fidelity ${spec.name}: ${consistent} of ${rea.length} REA captures show the same screens`)
  for (const [index, checkpoint] of checkpoints.entries()) {
    console.log(
      `fidelity ${spec.name} checkpoint ${index} (${waitWords(spec.steps[index].wait)}): ${describe(checkpoint)}`,
    )
  }
  // The screens are in the side-by-side file; the result keeps the verdicts.
  const verdicts = checkpoints.map((checkpoint) =>
    Object.fromEntries(Object.entries(checkpoint).filter(([key]) => key !== 'screens')),
  )
  return {
    name: spec.name,
    command: spec.command.join(' '),
    live: spec.live === true,
    rea_runs: rea.length,
    rea_consistent: consistent,
    checkpoints: verdicts,
  }
}

/**
 * Where one case runs: `work` (the current directory, filled by the case's setup) and `home`, the same two paths
 * for every run, emptied and set up again before each.
 */
class Place {
  constructor(spec) {
    this.spec = spec
    this.base = mkdtempSync(path.join(tmpdir(), 'rea-fidelity-'))
    this.work = path.join(this.base, 'work')
    this.home = path.join(this.base, 'home')
  }

  fresh() {
    for (const folder of [this.work, this.home]) {
      rmSync(folder, { recursive: true, force: true })
      mkdirSync(folder, { recursive: true })
    }
    this.spec.setup?.(this.work)
    return {
      cwd: this.work,
      environment: { ...ENVIRONMENT, HOME: this.home, ...this.spec.environment },
    }
  }

  remove() {
    rmSync(this.base, { recursive: true, force: true })
  }
}

function available(command) {
  return command.includes('/')
    ? existsSync(command)
    : spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0
}

/** REA's checkpoint frames before each step, as { state, cursor } (null where a wait ran out). */
async function reaScreens(captureProcess, spec, place) {
  const [executable, ...args] = spec.command
  const evidence = await captureProcess(
    {
      executable,
      arguments: args,
      environment: place.environment,
      terminal: { columns: COLUMNS, rows: ROWS, scrollback: 0 },
      events: spec.steps.map((step) => ({
        type: 'input',
        ...(step.keys === undefined ? { data: step.send } : { keys: step.keys }),
        after: { ...reaWait(step.wait), within_ms: WAIT_MS },
      })),
      timeout_ms: WAIT_MS * (spec.steps.length + 1),
      normalization: { ports: false },
    },
    { root: place.cwd },
  )
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

/** A step's wait as a scenario writes it: no quiet_ms, so REA's default settle decides when it is met. */
function reaWait(wait) {
  if (wait === null) {
    return { output_regex: '[\\s\\S]' }
  }
  return typeof wait === 'object' ? { quiet_ms: wait.quiet } : { screen: wait }
}

/** The same steps in a private tmux server; its pane at each checkpoint as { state, cursor }. */
async function tmuxScreens(internals, spec, place) {
  const server = `rea-fidelity-${process.pid}-${Date.now()}`
  const tmux = (...args) =>
    execFileSync('tmux', ['-L', server, '-f', '/dev/null', ...args], { encoding: 'utf8' })
  // env's options (-u) come before its assignments.
  const entries = Object.entries(place.environment)
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
      place.cwd,
      'env',
      ...assignments,
      ...spec.command.map(literalForTmux),
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
        state: paneState(tmux('capture-pane', '-p', '-e', '-N')),
        cursor: { row: Number(y), column: Number(x), visible: shown === '1' },
      })
      await sendToPane(tmux, internals, step)
    }
    return screens
  } finally {
    removeTmuxServer(server)
    // A tmux the case ran inside the pane is a server of its own, which outlives the pane.
    if (spec.name === 'tmux inside') {
      removeTmuxServer('rea-fidelity-inner')
    }
  }
}

/**
 * tmux's pane (`capture-pane -p -e -N`) as text to redraw in the comparison's terminal. -N keeps trailing blanks (a
 * coloured bar ends in them). tmux writes line-drawing cells between SO and SI, expecting G1 to be DEC's
 * line-drawing set, which it designates in its own terminal: so do we. Each row goes to its own place, with
 * autowrap off: a row laid out with tmux's widths (❤️ one cell) can be wider under REA's width model, and wrapped
 * onto the next row it pushed every row below down and the screen up by one (micro's screen looked one row off).
 */
function paneState(pane) {
  const rows = pane.replace(/\n$/, '').split('\n')
  return `\x1b)0\x1b[?7l${rows.map((row, index) => `\x1b[${index + 1};1H${row}`).join('')}`
}

/**
 * An argument of the pane's command as tmux must be given it: tmux takes an argument that ends in `;` as the end
 * of its own command (the case "tmux inside" passes `;` to the inner tmux, whose `set -g status off` then went to
 * the outer server), unless the `;` is escaped with a backslash.
 */
function literalForTmux(argument) {
  return argument.endsWith(';') ? `${argument.slice(0, -1)}\\;` : argument
}

/** A step's input: `send` in one write, `keys` one key at a time, as REA types them. */
async function sendToPane(tmux, internals, step) {
  const pieces =
    step.keys === undefined
      ? [step.send]
      : step.keys.map((key) => internals.encodeKeys([key], { applicationCursorKeys: false }))
  for (const [index, piece] of pieces.entries()) {
    if (index > 0) {
      await delay(50)
    }
    tmux('send-keys', '-H', ...[...Buffer.from(piece)].map((byte) => byte.toString(16)))
  }
}

/**
 * Polls the pane until it shows `wait` (a text; null: until it differs from `previous`; `{ quiet }`: until it has
 * not changed for that long) and has not changed for TMUX_QUIET_MS; null when WAIT_MS runs out.
 */
async function settledPane(tmux, wait, previous) {
  const deadline = performance.now() + WAIT_MS
  const quietMs = typeof wait === 'object' && wait !== null ? wait.quiet : TMUX_QUIET_MS
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
    } else if (shows(wait, pane, plain, previous) && performance.now() - since >= quietMs) {
      return pane
    }
    await delay(25)
  }
  return null
}

function shows(wait, pane, plain, previous) {
  if (wait === null) {
    return pane !== previous
  }
  // capture-pane -p trims each row's trailing spaces: a prompt such as "> " is looked for without them.
  return typeof wait === 'object' ? true : plain.includes(wait.trimEnd())
}
