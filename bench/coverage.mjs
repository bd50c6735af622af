// What covering captured programs costs a test run: a suite of 20 captures of a small Node.js CLI (the
// runner-coverage fixture's cli.cjs), run as whole `vitest run`s, round after round:
// - off: no coverage;
// - rea: `--coverage` (v8), REA collecting NODE_V8_COVERAGE per capture and handing it to the provider;
// - runner (Vitest 5 only): `--coverage --coverage.autoAttachSubprocess`, Vitest's own tracking of child processes,
//   REA only letting the variable through: the same suite without REA's part.
// Coverage's cost is each side's whole-run time minus "off"'s, so what both pay anyway (Vitest's start, the report)
// cancels out only where it should: REA's part must cost no more than the runner's own tracking.
// The Vitest is this checkout's, or the one in REA_TEST_VITEST_MODULES (a node_modules holding Vitest 5; run this
// under Node 22.12 or later then, with REA built for that Node).
import { execFileSync } from 'node:child_process'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { median, medianPairRatio } from './statistics.mjs'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const CAPTURES = 20
const RUNNER_ENTRIES = ['vitest', 'vite', '@vitest']

const testFile = `
import { expect, test } from 'rea-capture/vitest'
for (let index = 0; index < ${CAPTURES}; index++) {
  test('greets ' + index, async ({ captureProcess }) => {
    const evidence = await captureProcess({ executable: process.execPath, arguments: ['cli.cjs', 'greet'] })
    expect(evidence.exit.code).toBe(0)
  })
}
`

/** The project: the fixture's CLI, one test file of 20 captures, REA installed as `npm install` would. */
function benchProject(modules) {
  const project = mkdtempSync(path.join(tmpdir(), 'rea-bench-coverage-'))
  const fixture = path.join(repo, 'test/fixtures/projects/runner-coverage')
  for (const file of ['cli.cjs', 'lib.cjs', 'child.cjs']) {
    cpSync(path.join(fixture, file), path.join(project, file))
  }
  writeFileSync(path.join(project, 'package.json'), '{"type":"module","private":true}\n')
  writeFileSync(
    path.join(project, 'vitest.config.mjs'),
    "export default { test: { setupFiles: ['rea-capture/vitest'], include: ['*.test.mjs'], coverage: { provider: 'v8', reporter: ['json'] } } }\n",
  )
  writeFileSync(path.join(project, 'captures.test.mjs'), testFile)
  // Installed, not linked: Vitest then loads REA as an external package, as in a user's project.
  const rea = path.join(project, 'node_modules/rea-capture')
  mkdirSync(path.join(rea, 'node_modules'), { recursive: true })
  cpSync(path.join(repo, 'package.json'), path.join(rea, 'package.json'))
  cpSync(path.join(repo, 'dist'), path.join(rea, 'dist'), { recursive: true })
  symlinkSync(path.join(repo, 'native'), path.join(rea, 'native'))
  const dependencies = path.join(repo, 'node_modules')
  for (const entry of readdirSync(dependencies).filter((name) => !name.startsWith('.'))) {
    const from = RUNNER_ENTRIES.includes(entry) ? modules : dependencies
    symlinkSync(path.join(from, entry), path.join(rea, 'node_modules', entry))
  }
  return project
}

/** CPU time (user + system) of every waited-for descendant of this process so far, from /proc (Linux). */
function childrenCpuMs() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')
  // cutime and cstime are fields 16 and 17 of stat, 14 and 15 after the command; clock ticks of 10 ms.
  return (Number(fields[13]) + Number(fields[14])) * 10
}

function functionCount(project, name) {
  const report = JSON.parse(readFileSync(path.join(project, 'coverage/coverage-final.json'), 'utf8'))
  const lib = Object.entries(report).find(([file]) => file.endsWith('lib.cjs'))?.[1]
  const id = Object.entries(lib?.fnMap ?? {}).find(([, fn]) => fn.name === name)?.[0]
  return id === undefined ? 0 : lib.f[id]
}

export function runCoverageBenchmark({ rounds = 7 } = {}) {
  const modules = path.resolve(process.env.REA_TEST_VITEST_MODULES || path.join(repo, 'node_modules'))
  const version = JSON.parse(readFileSync(path.join(modules, 'vitest/package.json'), 'utf8')).version
  const variants = {
    off: [],
    rea: ['--coverage'],
    ...(Number(version.split('.')[0]) >= 5
      ? { runner: ['--coverage', '--coverage.autoAttachSubprocess'] }
      : {}),
  }
  const project = benchProject(modules)
  const times = Object.fromEntries(Object.keys(variants).map((name) => [name, []]))
  const cpu = Object.fromEntries(Object.keys(variants).map((name) => [name, []]))
  const counts = {}
  try {
    const run = (name) => {
      rmSync(path.join(project, 'coverage'), { recursive: true, force: true })
      const started = performance.now()
      const cpuBefore = childrenCpuMs()
      execFileSync(process.execPath, [path.join(modules, 'vitest/vitest.mjs'), 'run', ...variants[name]], {
        cwd: project,
        stdio: 'ignore',
        env: { ...process.env, CI: '', GITHUB_ACTIONS: '' },
      })
      times[name].push(performance.now() - started)
      // Vitest's processes and the captured programs, all waited for: on a loaded machine, wall time mostly
      // measures the other load; CPU time is what this run itself spent.
      cpu[name].push(childrenCpuMs() - cpuBefore)
      // Each variant must have covered every capture, or its time means nothing.
      counts[name] = name === 'off' ? null : functionCount(project, 'greetFromCapture')
    }
    // One warm-up of each (module caches, Vite's transform cache), then alternating rounds.
    Object.keys(variants).forEach(run)
    ;[...Object.values(times), ...Object.values(cpu)].forEach((list) => list.splice(0))
    for (let round = 0; round < rounds; round++) {
      Object.keys(variants).forEach(run)
    }
  } finally {
    rmSync(project, { recursive: true, force: true })
  }
  return {
    vitest: version,
    node: process.version,
    captures: CAPTURES,
    rounds,
    wall: summary(times),
    cpu: summary(cpu),
    covered_captures: counts,
  }
}

/** Medians, each variant's cost over "off", and pair ratios, for one measure. */
function summary(measured) {
  const off = median(measured.off)
  const ratio = (a, b) => Number(medianPairRatio(measured[a], measured[b]).toFixed(2))
  return {
    off_median_ms: Math.round(off),
    rea_median_ms: Math.round(median(measured.rea)),
    rea_cost_ms: Math.round(median(measured.rea) - off),
    rea_vs_off: ratio('rea', 'off'),
    ...(measured.runner === undefined
      ? {}
      : {
          runner_median_ms: Math.round(median(measured.runner)),
          runner_cost_ms: Math.round(median(measured.runner) - off),
          runner_vs_off: ratio('runner', 'off'),
          rea_vs_runner: ratio('rea', 'runner'),
        }),
    runs_ms: Object.fromEntries(Object.entries(measured).map(([name, list]) => [name, list.map(Math.round)])),
  }
}
