// 100 captures of `true` inside one Vitest test (through the rea-capture/vitest fixture, each also compared with an
// Evidence object by toMatchCapture) vs the same 100 spawns through raw node-pty in a plain Node process.
// Both sides are timed inside their process, so Vitest's and Node's start-up are not counted. The Vitest side
// runs twice per round: with the default reporter, and with rea-capture/reporter writing the report folder (whole
// `vitest run` wall times are kept too, so the folder's writing at the end is in the numbers).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { median, medianPairRatio } from './statistics.mjs'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const COUNT = 100

const testFile = `
import { writeFileSync } from 'node:fs'
import { expect, test } from 'rea-capture/vitest'
test('100 captures', { timeout: 300_000 }, async ({ captureProcess }) => {
  const first = await captureProcess({ executable: 'true' })
  const started = performance.now()
  for (let index = 0; index < ${COUNT}; index++) {
    expect(await captureProcess({ executable: 'true' })).toMatchCapture(first)
  }
  writeFileSync(new URL('./elapsed.json', import.meta.url), JSON.stringify({ ms: performance.now() - started }))
})
`

const rawScript = `
import * as ptyNs from 'node-pty'
const pty = typeof ptyNs.spawn === 'function' ? ptyNs : ptyNs.default
const once = () => new Promise((resolve) => pty.spawn('true', [], { cols: 80, rows: 24 }).onExit(resolve))
await once()
const started = performance.now()
for (let index = 0; index < ${COUNT}; index++) await once()
console.log(JSON.stringify({ ms: performance.now() - started }))
`

export function runVitestCapturesBenchmark({ rounds = 15 } = {}) {
  const project = mkdtempSync(path.join(tmpdir(), 'rea-bench-vitest-'))
  try {
    mkdirSync(path.join(project, 'node_modules'))
    symlinkSync(repo, path.join(project, 'node_modules/rea-capture'))
    writeFileSync(path.join(project, 'package.json'), '{"type":"module","private":true}\n')
    writeFileSync(
      path.join(project, 'vitest.config.mjs'),
      "export default { test: { setupFiles: ['rea-capture/vitest'], reporters: process.env.BENCH_REPORTER ? ['default', 'rea-capture/reporter'] : ['default'] } }\n",
    )
    writeFileSync(path.join(project, 'captures.test.mjs'), testFile)
    writeFileSync(path.join(repo, 'bench/.raw-pty.mjs'), rawScript)
    const vitest = []
    const withReporter = []
    const wall = []
    const wallWithReporter = []
    const raw = []
    const runVitest = (reporter) => {
      const started = performance.now()
      execFileSync(
        process.execPath,
        [path.join(repo, 'node_modules/vitest/vitest.mjs'), 'run', '--root', project],
        {
          stdio: 'ignore',
          env: { ...process.env, CI: '', GITHUB_ACTIONS: '', ...(reporter ? { BENCH_REPORTER: '1' } : {}) },
        },
      )
      ;(reporter ? wallWithReporter : wall).push(performance.now() - started)
      ;(reporter ? withReporter : vitest).push(
        JSON.parse(readFileSync(path.join(project, 'elapsed.json'), 'utf8')).ms,
      )
    }
    for (let round = 0; round < rounds; round++) {
      runVitest(false)
      runVitest(true)
      raw.push(
        JSON.parse(
          execFileSync(process.execPath, [path.join(repo, 'bench/.raw-pty.mjs')], { encoding: 'utf8' }),
        ).ms,
      )
    }
    return {
      captures: COUNT,
      rounds,
      vitest_median_ms: Math.round(median(vitest)),
      raw_node_pty_median_ms: Math.round(median(raw)),
      ratio: Number((median(vitest) / median(raw)).toFixed(2)),
      pair_ratio: Number(medianPairRatio(vitest, raw).toFixed(2)),
      with_reporter_median_ms: Math.round(median(withReporter)),
      with_reporter_ratio: Number((median(withReporter) / median(raw)).toFixed(2)),
      whole_run_median_ms: Math.round(median(wall)),
      whole_run_with_reporter_median_ms: Math.round(median(wallWithReporter)),
      whole_run_reporter_ratio: Number((median(wallWithReporter) / median(wall)).toFixed(2)),
      vitest_runs_ms: vitest.map(Math.round),
      with_reporter_runs_ms: withReporter.map(Math.round),
      raw_runs_ms: raw.map(Math.round),
    }
  } finally {
    rmSync(project, { recursive: true, force: true })
    rmSync(path.join(repo, 'bench/.raw-pty.mjs'), { force: true })
  }
}
