// Soak of "no process outlives its capture" when REA itself is ended: `rea capture-process` of a program that
// leaves three detached daemons (setsid -f, nohup, a HUP-ignoring double fork), ended by its own exit or by
// SIGINT, SIGTERM, SIGHUP or SIGKILL at a random moment, two at a time. Not run in CI (about ten minutes).
//
//   npm run build && node bench/soak-ownership.mjs [runs=1000] [seed]
//
// Each run marks everything it starts with REA_SOAK_RUN=<run>, so its survivors are found by environment. A
// final group kills REA and its supervisor together, the documented limit: there, daemons are expected to
// survive (they are killed by the script and counted separately).
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const CLI = path.join(here, '../dist/cli/main.cjs')
const DAEMONS = path.join(here, '../test/fixtures/programs/daemons.sh')
const runs = Number(process.argv[2] ?? 1000)
let seed = Number(process.argv[3] ?? Date.now() % 2 ** 31)
const firstSeed = seed
const PARALLEL = 2
const BOTH_KILLED_RUNS = 20
const FATES = ['exit', 'SIGINT', 'SIGTERM', 'SIGHUP', 'SIGKILL']

/** A small deterministic generator, so a run can be repeated with its seed. */
function random() {
  seed = (seed * 1103515245 + 12345) % 2 ** 31
  return seed / 2 ** 31
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const scratch = mkdtempSync(path.join(os.tmpdir(), 'rea-soak-'))
const scenarios = {
  exit: path.join(scratch, 'exits.json'),
  stay: path.join(scratch, 'stays.json'),
}
writeFileSync(scenarios.exit, JSON.stringify({ executable: DAEMONS, settle_ms: 50 }))
writeFileSync(scenarios.stay, JSON.stringify({ executable: DAEMONS, arguments: ['stay'] }))

/** Live processes whose environment holds `entry`, with their command names. */
function carriers(entry) {
  const found = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) {
      continue
    }
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(entry)) {
        found.push({ pid: Number(name), comm: readFileSync(`/proc/${name}/comm`, 'utf8').trim() })
      }
    } catch {
      // Gone between the listing and the read, or a zombie.
    }
  }
  return found
}

function supervisorsOf(parentPid) {
  const found = []
  for (const name of readdirSync('/proc')) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (stat.includes('(rea-supervisor)') && Number(fields[1]) === parentPid) {
        found.push(Number(name))
      }
    } catch {
      // Not a process, or gone.
    }
  }
  return found
}

async function waitUntil(condition, timeoutMs) {
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    if (condition()) {
      return true
    }
    await delay(5)
  }
  return condition()
}

async function soakRun(run, fate, bothKilled = false) {
  const entry = `REA_SOAK_RUN=${firstSeed}-${run}`
  const child = spawn(
    process.execPath,
    [CLI, 'capture-process', fate === 'exit' ? scenarios.exit : scenarios.stay, '--json', '--no-progress'],
    {
      env: { ...process.env, REA_SOAK_RUN: `${firstSeed}-${run}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let stdout = ''
  child.stdout.setEncoding('utf8').on('data', (text) => (stdout += text))
  child.stderr.resume()
  const closed = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })))
  const result = { run, fate, both_killed: bothKilled, survivors: 0, cleanup_ms: null, evidence: null }
  if (fate !== 'exit') {
    // Half the signals land once the daemons run, half at a random moment from start (some before launch).
    if (bothKilled || random() < 0.5) {
      await waitUntil(() => carriers(entry).length >= 5, 15_000)
      await delay(random() * 200)
    } else {
      await delay(random() * 1500)
    }
    if (bothKilled) {
      for (const pid of supervisorsOf(child.pid)) {
        process.kill(pid, 'SIGKILL')
      }
    }
    child.kill(fate)
  }
  const ended = await closed
  const endedAt = performance.now()
  result.exit = ended.code ?? ended.signal
  if (fate !== 'SIGKILL') {
    try {
      const evidence = JSON.parse(stdout)
      result.evidence = { disposition: evidence.disposition, root: evidence.process.root !== null }
      const expected = fate === 'exit' ? 'exited' : 'cancelled'
      if (evidence.disposition !== expected) {
        result.anomaly = {
          exit: evidence.exit,
          settlement: evidence.settlement.status,
          cleanup: evidence.cleanup,
        }
      }
    } catch {
      result.evidence = 'missing'
    }
  }
  // Owned processes still carrying the run's marker: REA's own cleanup, or its supervisor's, has to end them.
  const clean = await waitUntil(() => carriers(entry).filter((p) => p.comm !== 'node').length === 0, 5000)
  result.cleanup_ms = Math.round(performance.now() - endedAt)
  if (!clean) {
    const left = carriers(entry).filter((p) => p.comm !== 'node')
    result.survivors = left.length
    for (const process_ of left) {
      try {
        process.kill(process_.pid, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
  }
  return result
}

const results = []
let next = 0
const plan = Array.from({ length: runs }, () => FATES[Math.floor(random() * FATES.length)])
async function worker() {
  while (next < plan.length) {
    const run = next++
    results.push(await soakRun(run, plan[run]))
    if (results.length % 100 === 0) {
      console.error(`${results.length} of ${runs} runs`)
    }
  }
}
const started = performance.now()
await Promise.all(Array.from({ length: PARALLEL }, worker))
const bothKilled = []
for (let run = 0; run < BOTH_KILLED_RUNS; run++) {
  bothKilled.push(await soakRun(runs + run, 'SIGKILL', true))
}
rmSync(scratch, { recursive: true, force: true })

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? null
const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * p)] ?? null
const summary = {
  date: new Date().toISOString(),
  seed: firstSeed,
  runs,
  parallel: PARALLEL,
  minutes: Number(((performance.now() - started) / 60_000).toFixed(1)),
  host: { node: process.version, cpus: os.cpus().length, load: os.loadavg() },
  by_fate: Object.fromEntries(
    FATES.map((fate) => {
      const of = results.filter((result) => result.fate === fate)
      const cleanup = of.map((result) => result.cleanup_ms)
      return [
        fate,
        {
          runs: of.length,
          runs_with_survivors: of.filter((result) => result.survivors > 0).length,
          survivors: of.reduce((sum, result) => sum + result.survivors, 0),
          exit_codes: countBy(of.map((result) => String(result.exit))),
          evidence:
            fate === 'SIGKILL' ? null : countBy(of.map((result) => describeEvidence(result.evidence))),
          cleanup_after_rea_ended_ms: {
            median: median(cleanup),
            p95: percentile(cleanup, 0.95),
            max: Math.max(...cleanup),
          },
        },
      ]
    }),
  ),
  unexpected_dispositions: results
    .filter((result) => result.anomaly !== undefined)
    .map(({ run, fate, exit, anomaly }) => ({ run, fate, rea_exit: exit, ...anomaly })),
  rea_and_supervisor_both_killed: {
    runs: bothKilled.length,
    runs_with_survivors: bothKilled.filter((result) => result.survivors > 0).length,
    survivors: bothKilled.reduce((sum, result) => sum + result.survivors, 0),
  },
}
console.log(JSON.stringify(summary, null, 2))

function countBy(values) {
  const counts = {}
  for (const value of values) {
    counts[value] = (counts[value] ?? 0) + 1
  }
  return counts
}

function describeEvidence(evidence) {
  if (evidence === null || typeof evidence === 'string') {
    return String(evidence)
  }
  return `${evidence.disposition}${evidence.root ? '' : ' (nothing launched)'}`
}
