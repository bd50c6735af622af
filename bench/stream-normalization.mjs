// What the stream rules (placeholders, filters) cost: whole `rea capture-process` runs of a 50 MB flood and of
// 10,000 lines that each hold the capture root, with and without the test plugin's default placeholders,
// against a bare node-pty reader in the same rounds; and how long a waited answer takes when the rules hold
// the question back until output goes quiet. REA_BEFORE_CLI=<path to an older dist/cli/main.cjs> adds that
// build as a contender (the build before a change).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { median, medianPairRatio } from './statistics.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const PLACEHOLDERS = ['root', 'cwd', 'home', 'tmpdir']

function timeContenders(contenders, rounds, cwd) {
  const times = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]))
  for (let round = 0; round < rounds; round++) {
    // Alternate within each round so that machine load affects every contender alike.
    for (const [name, [command, args]] of Object.entries(contenders)) {
      const started = performance.now()
      const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd })
      const elapsed = performance.now() - started
      if (result.status !== 0) {
        throw new Error(
          `${name} failed with status ${result.status}: ${result.stderr.toString().slice(-400)}`,
        )
      }
      times[name].push(elapsed)
    }
  }
  return times
}

function captureContenders(work, command, label) {
  const cli = (main, normalization, file) => {
    const scenario = path.join(work, `${file}.json`)
    writeFileSync(
      scenario,
      JSON.stringify({
        executable: 'sh',
        arguments: ['-c', command],
        timeout_ms: 600_000,
        ...(normalization === undefined ? {} : { normalization }),
      }),
    )
    return [
      process.execPath,
      [main, 'capture-process', scenario, '--json', '--output', path.join(work, `${file}.out.json`)],
    ]
  }
  const main = path.join(root, 'dist/cli/main.cjs')
  const contenders = {
    [`${label}: bare node-pty reader`]: [process.execPath, [path.join(here, 'bare-pty-reader.mjs'), command]],
    [`${label}: rea, no stream rules`]: cli(main, undefined, 'plain'),
    [`${label}: rea, default placeholders`]: cli(main, { placeholders: PLACEHOLDERS }, 'placeholders'),
  }
  const before = process.env.REA_BEFORE_CLI
  if (before !== undefined && before !== '') {
    contenders[`${label}: rea, the build before`] = cli(before, undefined, 'before')
  }
  return contenders
}

function summarize(times, bytes) {
  const names = Object.keys(times)
  const bare = times[names[0]]
  return names.map((name) => ({
    name,
    median_ms: Math.round(median(times[name])),
    ...(bytes === undefined
      ? {}
      : { mb_per_s: Number((bytes / 1e6 / (median(times[name]) / 1000)).toFixed(1)) }),
    // Throughput relative to the bare reader: the pair ratio of its time to this contender's.
    vs_bare_reader: Number(medianPairRatio(bare, times[name]).toFixed(2)),
  }))
}

async function heldAnswerLatency(rounds) {
  const { captureProcess } = await import(path.join(root, 'dist/index.js'))
  const prompt = path.join(here, 'reaction-prompt.mjs')
  const run = async (normalization) => {
    const evidence = await captureProcess({
      executable: process.execPath,
      arguments: [prompt, String(rounds)],
      events: Array.from({ length: rounds }, (_, index) => ({
        type: 'input',
        data: 'x\r',
        after: { output: `Q${index}? ` },
      })),
      ...(normalization === undefined ? {} : { normalization }),
    })
    const text = evidence.terminal.chunks.map((chunk) => chunk.raw_data ?? chunk.data).join('')
    const latencies = JSON.parse(/LATENCIES (\[[^\]]*\])/.exec(text)[1])
    return Number(median(latencies).toFixed(2))
  }
  return {
    no_rules_median_ms: await run(undefined),
    placeholders_median_ms: await run({ placeholders: PLACEHOLDERS }),
    placeholders_and_filters_median_ms: await run({
      placeholders: PLACEHOLDERS,
      filters: ['durations', 'timestamps', 'uuids', 'hex_ids', 'temp_names'],
    }),
  }
}

export async function runStreamNormalizationBenchmark({
  floodRounds = 11,
  linesRounds = 11,
  answers = 40,
} = {}) {
  const work = mkdtempSync(path.join(tmpdir(), 'rea-bench-stream-'))
  try {
    const floodBytes = 50_000_000
    const flood = timeContenders(
      captureContenders(work, `head -c ${floodBytes} /dev/zero | tr '\\0' a`, 'flood'),
      floodRounds,
      work,
    )
    const lines = timeContenders(
      captureContenders(
        work,
        `i=0; while [ $i -lt 10000 ]; do echo "line $i at $PWD/src/file.js"; i=$((i+1)); done`,
        '10,000 lines holding the root',
      ),
      linesRounds,
      work,
    )
    return {
      flood: { bytes: floodBytes, rounds: floodRounds, rows: summarize(flood, floodBytes) },
      root_lines: { rounds: linesRounds, rows: summarize(lines) },
      held_answer: { answers, ...(await heldAnswerLatency(answers)) },
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
