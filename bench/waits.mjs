// How fast a waited event reacts: a program asks questions one by one and times each answer, driven once by REA
// (each answer an input event with after: { output: 'Q<i>? ' }) and once by a bare node-pty script that writes
// the answer from its data handler the moment it sees the question, in the same run. Also the bundled todo
// example as the examples used to drive it (typed at a guessed 1,500 ms) and as they drive it now (after the
// prompt is on screen).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const prompt = path.join(here, 'reaction-prompt.mjs')

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
}
const round3 = (value) => Number(value.toFixed(3))

function latenciesFrom(text) {
  const match = /LATENCIES (\[[^\]]*\])/.exec(text)
  if (match === null) {
    throw new Error(`the prompt program printed no latencies: ${JSON.stringify(text.slice(-300))}`)
  }
  return JSON.parse(match[1])
}

async function bareNodePty(pty, rounds) {
  return new Promise((resolve, reject) => {
    const child = pty.spawn(process.execPath, [prompt, String(rounds)], { cols: 80, rows: 24 })
    let seen = ''
    let next = 0
    child.onData((data) => {
      seen += data
      while (next < rounds && seen.includes(`Q${next}? `)) {
        next += 1
        child.write('x\r')
      }
    })
    child.onExit(() => {
      try {
        resolve(latenciesFrom(seen))
      } catch (error) {
        reject(error)
      }
    })
  })
}

async function reaWaits(captureProcess, rounds) {
  const evidence = await captureProcess({
    executable: process.execPath,
    arguments: [prompt, String(rounds)],
    events: Array.from({ length: rounds }, (_, index) => ({
      type: 'input',
      data: 'x\r',
      after: { output: `Q${index}? ` },
    })),
  })
  const text = evidence.terminal.chunks.map((chunk) => chunk.data).join('')
  const inside = evidence.interactions.map((interaction) => interaction.at_ms - interaction.wait.met_at_ms)
  return { program: latenciesFrom(text), inside }
}

async function todoOnce(captureProcess, events) {
  const work = mkdtempSync(path.join(tmpdir(), 'rea-bench-todo-'))
  const started = performance.now()
  const evidence = await captureProcess({
    executable: process.execPath,
    arguments: [path.join(root, 'examples/vitest/todo.mjs')],
    working_directory: work,
    events,
  })
  rmSync(work, { recursive: true, force: true })
  if (evidence.exit.code !== 0) {
    throw new Error(`todo.mjs exited with ${evidence.exit.code}`)
  }
  return performance.now() - started
}

export async function runWaitsBenchmark({ rounds = 50, repeats = 4, todoRuns = 5 } = {}) {
  const { captureProcess } = await import(path.join(root, 'dist/index.js'))
  const pty = (await import('node-pty')).default
  const bare = []
  const rea = []
  const inside = []
  for (let repeat = 0; repeat < repeats; repeat++) {
    bare.push(...(await bareNodePty(pty, rounds)))
    const run = await reaWaits(captureProcess, rounds)
    rea.push(...run.program)
    inside.push(...run.inside)
  }
  const timed = []
  const waited = []
  for (let run = 0; run < todoRuns; run++) {
    timed.push(await todoOnce(captureProcess, [{ type: 'input', at_ms: 1500, data: 'water the plants\r' }]))
    waited.push(
      await todoOnce(captureProcess, [
        { type: 'input', data: 'water the plants\r', after: { screen: 'New task:' } },
      ]),
    )
  }
  return {
    answers: bare.length,
    // From the question's write in the program to the answer's arrival there: PTY both ways plus the driver.
    rea_program_median_ms: round3(quantile(rea, 0.5)),
    rea_program_p99_ms: round3(quantile(rea, 0.99)),
    bare_node_pty_program_median_ms: round3(quantile(bare, 0.5)),
    bare_node_pty_program_p99_ms: round3(quantile(bare, 0.99)),
    // REA's own record: condition met → input written (interaction at_ms − wait.met_at_ms, whole ms).
    rea_met_to_sent_median_ms: quantile(inside, 0.5),
    rea_met_to_sent_p99_ms: quantile(inside, 0.99),
    todo_timed_median_ms: Math.round(quantile(timed, 0.5)),
    todo_waited_median_ms: Math.round(quantile(waited, 0.5)),
  }
}
