// What `rea record` costs the person using it, and what `--verify` costs. A scripted person types into the
// Inquirer sign-up (test/fixtures/programs/signup.mjs: a handle typed key by key, a plan chosen with an arrow key,
// a password) through `rea record --verify 3` in a PTY, and, alternating in the same run, the same keys into the
// same program under node-pty alone. Per answer: Enter written → the next question (or the closing line) on the
// person's screen. Per session: start → the program's end (for rea record, until it starts verifying: the scenario
// is built and written by then). Then the verify phase (three replays, compared) against three `rea capture-process`
// runs of the scenario it wrote (whole processes, what a person would run by hand) and three `captureProcess`
// calls in this process (the replays alone).
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { median, medianPairRatio } from './statistics.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const cli = path.join(root, 'dist/cli/main.cjs')
const KEY_GAP_MS = 15
const PASSWORD = 'q"Zx\\#7%k!'
/** What the person types for each question, and what shows that the program took the answer. */
const ANSWERS = [
  { question: 'Pick a handle', keys: [...'grace7', '\r'], next: 'Choose a plan' },
  { question: 'Choose a plan', keys: ['\x1b[B', '\r'], next: 'Password' },
  { question: 'Password', keys: [...PASSWORD, '\r'], next: 'Welcome' },
]
const VERIFYING = 'rea: verifying'

/** A person at a PTY of its own running `command`: waits for text after a position, types keys with a gap. */
function terminal(pty, command, cwd) {
  const started = performance.now()
  const child = pty.spawn(command[0], command.slice(1), {
    cwd,
    cols: 80,
    rows: 24,
    name: 'xterm-256color',
    env: { ...process.env, NO_COLOR: '1' },
  })
  const seen = { output: '', marks: [] }
  const waiters = []
  child.onData((data) => {
    seen.output += data
    for (const waiter of [...waiters]) {
      if (seen.output.indexOf(waiter.text, waiter.from) !== -1) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve(performance.now())
      }
    }
  })
  const exited = new Promise((resolve) =>
    child.onExit(({ exitCode }) => resolve({ code: exitCode, at: performance.now() })),
  )
  const waitFor = (text, from = 0) =>
    seen.output.indexOf(text, from) !== -1
      ? Promise.resolve(performance.now())
      : Promise.race([
          new Promise((resolve) => waiters.push({ text, from, resolve })),
          exited.then(() => {
            throw new Error(
              `${command.join(' ')} ended before showing ${JSON.stringify(text)}:\n${seen.output}`,
            )
          }),
        ])
  return { child, started, seen, waitFor, exited }
}

/** Answers the sign-up's three questions; returns each answer's Enter → next-question time. */
async function answer(session) {
  const latencies = []
  for (const { question, keys, next } of ANSWERS) {
    await session.waitFor(question)
    for (const [index, key] of keys.entries()) {
      if (index > 0) {
        await delay(KEY_GAP_MS)
      }
      if (index === keys.length - 1) {
        const from = session.seen.output.length
        const sent = performance.now()
        session.child.write(key)
        latencies.push((await session.waitFor(next, from)) - sent)
      } else {
        session.child.write(key)
      }
    }
  }
  return latencies
}

async function bare(pty, work) {
  const session = terminal(pty, [process.execPath, 'signup.mjs'], work)
  const answers = await answer(session)
  const exit = await session.exited
  if (exit.code !== 0) {
    throw new Error(`signup.mjs exited with ${exit.code}:\n${session.seen.output}`)
  }
  return { answers, session_ms: exit.at - session.started }
}

async function recorded(pty, work, scenario) {
  const command = [
    process.execPath,
    cli,
    'record',
    '--verify',
    '3',
    '-o',
    scenario,
    '--',
    'node',
    'signup.mjs',
  ]
  const session = terminal(pty, command, work)
  const answers = await answer(session)
  const verifying = await session.waitFor(VERIFYING)
  const exit = await session.exited
  if (exit.code !== 0 || !session.seen.output.includes('hold against each other')) {
    throw new Error(`rea record exited with ${exit.code}:\n${session.seen.output}`)
  }
  return { answers, session_ms: verifying - session.started, verify_ms: exit.at - verifying }
}

function threeCliCaptures(work, scenario) {
  const started = performance.now()
  for (let run = 0; run < 3; run++) {
    const result = spawnSync(
      process.execPath,
      [cli, 'capture-process', scenario, '--json', '-o', `replay-${run}.json`, '--no-progress'],
      { cwd: work, stdio: ['ignore', 'ignore', 'pipe'] },
    )
    if (result.status !== 0) {
      throw new Error(`rea capture-process ${scenario} exited with ${result.status}: ${result.stderr}`)
    }
  }
  return performance.now() - started
}

async function threeLibraryCaptures(captureProcess, work, scenario) {
  const { readFileSync } = await import('node:fs')
  const input = JSON.parse(readFileSync(path.join(work, scenario), 'utf8'))
  const started = performance.now()
  for (let run = 0; run < 3; run++) {
    const evidence = await captureProcess(input, { root: work })
    if (evidence.exit.code !== 0) {
      throw new Error(`the replay of ${scenario} exited with ${evidence.exit.code}`)
    }
  }
  return performance.now() - started
}

const ms = (value) => Number(value.toFixed(1))
const ratio = (value) => Number(value.toFixed(2))

export async function runRecordBenchmark({ rounds = 7 } = {}) {
  const pty = (await import('node-pty')).default
  const { captureProcess } = await import(path.join(root, 'dist/index.js'))
  // Inside the checkout, so that the sign-up finds @inquirer/prompts in its node_modules.
  const work = mkdtempSync(path.join(root, 'bench', '.record-'))
  copyFileSync(path.join(root, 'test/fixtures/programs/signup.mjs'), path.join(work, 'signup.mjs'))
  try {
    await bare(pty, work)
    await recorded(pty, work, 'warm.scenario.json')
    const rows = []
    for (let round = 0; round < rounds; round++) {
      const scenario = `signup-${round}.scenario.json`
      const b = await bare(pty, work)
      const r = await recorded(pty, work, scenario)
      const cli3 = threeCliCaptures(work, scenario)
      const library3 = await threeLibraryCaptures(captureProcess, work, scenario)
      rows.push({ bare: b, rea: r, cli3, library3 })
    }
    const answersRea = rows.flatMap((row) => row.rea.answers)
    const answersBare = rows.flatMap((row) => row.bare.answers)
    const sessionRea = rows.map((row) => row.rea.session_ms)
    const sessionBare = rows.map((row) => row.bare.session_ms)
    const verify = rows.map((row) => row.rea.verify_ms)
    const cli3 = rows.map((row) => row.cli3)
    const library3 = rows.map((row) => row.library3)
    return {
      rounds,
      answers: answersRea.length,
      answer_rea_median_ms: ms(median(answersRea)),
      answer_bare_median_ms: ms(median(answersBare)),
      answer_ratio: ratio(medianPairRatio(answersRea, answersBare)),
      answer_rea_max_ms: ms(Math.max(...answersRea)),
      answer_bare_max_ms: ms(Math.max(...answersBare)),
      session_rea_median_ms: Math.round(median(sessionRea)),
      session_bare_median_ms: Math.round(median(sessionBare)),
      session_ratio: ratio(medianPairRatio(sessionRea, sessionBare)),
      verify_median_ms: Math.round(median(verify)),
      three_cli_captures_median_ms: Math.round(median(cli3)),
      verify_vs_cli: ratio(medianPairRatio(verify, cli3)),
      three_library_captures_median_ms: Math.round(median(library3)),
      verify_vs_library: ratio(medianPairRatio(verify, library3)),
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
