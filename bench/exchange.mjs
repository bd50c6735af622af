// The terminal exchange and the settled dispatch model (docs/events.md#when-input-goes-in), side by side in one run:
// - the first reply: a program times its terminal's answer to a DA1 sent as it starts, then four more, under REA
//   (in this process, and in a fresh `rea capture-process` each time, where the emulator is loaded beside the
//   spawn) and under tmux (a private server, `tmux -L <unique name> -f /dev/null`, killed by that name when done);
//   asked once the program's event loop runs, and again asked while its module loads (`--at-load`, which adds
//   Node.js's own start-up tail to the first time); with REA_BASELINE also under that build, in this process;
// - what a settled wait costs per event: bench/reaction-prompt.mjs asks questions one by one and times each
//   answer, driven by REA under settled-v1 (the default settle), settled-v1 with quiet_ms 0 (the exchange only)
//   and the legacy immediate model;
// - with REA_BASELINE=<folder of another build> (its dist/ built, its native addon built), start-up and a capture
//   of a program that prints and exits against that build, alternating pair by pair.
//
//   node bench/run.mjs exchange
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { median, medianPairRatio } from './statistics.mjs'
import { removeTmuxServer } from './tmux-server.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const latencyProgram = path.join(root, 'test/fixtures/programs/reply-latency.mjs')
const prompt = path.join(here, 'reaction-prompt.mjs')
const round1 = (value) => Number(value.toFixed(1))

function parseLatencies(text) {
  const first = /first ([\d.]+) ms/.exec(text)
  const later = /later ([\d. ]+) ms/.exec(text)
  if (first === null || later === null) {
    throw new Error(`reply-latency printed no times: ${JSON.stringify(text.slice(-200))}`)
  }
  return { first: Number(first[1]), later: later[1].trim().split(/\s+/).map(Number) }
}

const latencyArguments = (atLoad) => [latencyProgram, ...(atLoad ? ['--at-load'] : [])]

async function reaFirstReply(captureProcess, atLoad) {
  const evidence = await captureProcess({ executable: process.execPath, arguments: latencyArguments(atLoad) })
  return parseLatencies(evidence.terminal.chunks.map((chunk) => chunk.data).join(''))
}

/** The same in a fresh `rea capture-process`: the emulator is loaded beside the program's start, in a cold process. */
function cliFirstReply(work, atLoad) {
  const scenario = path.join(work, 'reply-latency.json')
  writeFileSync(
    scenario,
    JSON.stringify({ executable: process.execPath, arguments: latencyArguments(atLoad) }),
  )
  timeCli(path.join(root, 'dist/cli/main.cjs'), work, scenario)
  const evidence = JSON.parse(readFileSync(path.join(work, 'capture.json'), 'utf8'))
  return parseLatencies(evidence.terminal.chunks.map((chunk) => chunk.data).join(''))
}

async function tmuxFirstReply(work, index, atLoad) {
  const server = `rea-bench-exchange-${process.pid}-${index}`
  const out = path.join(work, `tmux-${index}.txt`)
  try {
    execFileSync(
      'tmux',
      ['-L', server, '-f', '/dev/null', 'new-session', '-d', '-x', '80', '-y', '24'].concat([
        process.execPath,
        ...latencyArguments(atLoad),
        '--out',
        out,
      ]),
    )
    const deadline = performance.now() + 10_000
    while (performance.now() < deadline) {
      try {
        return parseLatencies(readFileSync(out, 'utf8'))
      } catch {
        // Not written yet: the program is still asking.
        await delay(20)
      }
    }
    throw new Error('the program under tmux reported nothing within 10 s')
  } finally {
    removeTmuxServer(server)
  }
}

async function promptLatencies(captureProcess, rounds, options) {
  const evidence = await captureProcess({
    executable: process.execPath,
    arguments: [prompt, String(rounds)],
    ...(options.dispatch === undefined ? {} : { event_dispatch: options.dispatch }),
    events: Array.from({ length: rounds }, (_, index) => ({
      type: 'input',
      data: 'x\r',
      after: { output: `Q${index}? `, ...(options.quiet === undefined ? {} : { quiet_ms: options.quiet }) },
    })),
  })
  const text = evidence.terminal.chunks.map((chunk) => chunk.data).join('')
  const match = /LATENCIES (\[[^\]]*\])/.exec(text)
  if (match === null) {
    throw new Error(`the prompt program printed no latencies: ${JSON.stringify(text.slice(-300))}`)
  }
  return JSON.parse(match[1])
}

/** `node <cli> capture-process` of a scenario, timed from spawn to exit. */
function timeCli(cli, work, scenario) {
  const started = performance.now()
  const result = spawnSync(
    process.execPath,
    [cli, 'capture-process', scenario, '--json', '--output', 'capture.json', '--no-progress'],
    { cwd: work, stdio: ['ignore', 'ignore', 'pipe'] },
  )
  if (result.status !== 0) {
    throw new Error(`${cli} exited with ${result.status}: ${result.stderr}`)
  }
  return performance.now() - started
}

function againstBaseline(baseline, work, pairs) {
  const scenarios = {
    true: { executable: 'true' },
    // A program that prints, with an escape, and exits: the live terminal is loaded and used.
    printf: { executable: 'printf', arguments: ['\\033[1mbold\\033[0m %s\\n', 'line'] },
    // A program that runs 300 ms and asks nothing: the live terminal is prepared beside it, never used.
    sleep: { executable: 'sleep', arguments: ['0.3'] },
  }
  const results = {}
  for (const [name, scenario] of Object.entries(scenarios)) {
    const file = path.join(work, `${name}.json`)
    writeFileSync(file, JSON.stringify(scenario))
    const current = []
    const base = []
    timeCli(path.join(root, 'dist/cli/main.cjs'), work, file)
    timeCli(path.join(baseline, 'dist/cli/main.cjs'), work, file)
    for (let index = 0; index < pairs; index++) {
      current.push(timeCli(path.join(root, 'dist/cli/main.cjs'), work, file))
      base.push(timeCli(path.join(baseline, 'dist/cli/main.cjs'), work, file))
    }
    results[name] = {
      current_median_ms: Math.round(median(current)),
      baseline_median_ms: Math.round(median(base)),
      ratio: Number(medianPairRatio(current, base).toFixed(3)),
    }
  }
  return results
}

export async function runExchangeBenchmark({ runs = 10, rounds = 20, pairs = 20 } = {}) {
  const { captureProcess } = await import(path.join(root, 'dist/index.js'))
  const baseline = process.env.REA_BASELINE
  const baselineCapture =
    baseline === undefined ? undefined : (await import(path.join(baseline, 'dist/index.js'))).captureProcess
  const work = mkdtempSync(path.join(tmpdir(), 'rea-bench-exchange-'))
  try {
    const haveTmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0
    const firstReply = {}
    for (const atLoad of [false, true]) {
      const times = { rea: [], rea_cli: [], tmux: [], baseline: [] }
      // One of each per run, so that drift in the machine's load reaches all of them alike.
      for (let run = 0; run < runs; run++) {
        times.rea.push(await reaFirstReply(captureProcess, atLoad))
        times.rea_cli.push(cliFirstReply(work, atLoad))
        if (haveTmux) {
          times.tmux.push(await tmuxFirstReply(work, run, atLoad))
        }
        if (baselineCapture !== undefined) {
          times.baseline.push(await reaFirstReply(baselineCapture, atLoad))
        }
      }
      firstReply[atLoad ? 'asked_at_load' : 'asked_once_running'] = Object.fromEntries(
        Object.entries(times)
          .filter(([, entries]) => entries.length > 0)
          .map(([name, entries]) => [
            name,
            {
              first_median_ms: round1(median(entries.map((entry) => entry.first))),
              later_median_ms: round1(median(entries.flatMap((entry) => entry.later))),
            },
          ]),
      )
    }
    const settled = []
    const exchangeOnly = []
    const immediate = []
    for (let run = 0; run < 3; run++) {
      settled.push(...(await promptLatencies(captureProcess, rounds, {})))
      exchangeOnly.push(...(await promptLatencies(captureProcess, rounds, { quiet: 0 })))
      immediate.push(...(await promptLatencies(captureProcess, rounds, { dispatch: 'immediate' })))
    }
    return {
      runs,
      first_reply: firstReply,
      answers_per_model: settled.length,
      answer_settled_median_ms: round1(median(settled)),
      answer_exchange_only_median_ms: round1(median(exchangeOnly)),
      answer_immediate_median_ms: round1(median(immediate)),
      ...(baseline === undefined ? {} : { against_baseline: againstBaseline(baseline, work, pairs) }),
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
