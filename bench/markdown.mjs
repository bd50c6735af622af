// A Markdown file of 50 small console blocks (`$ echo line N` / `line N`) run by Vitest through
// rea-capture/vitest-markdown, against a Vitest file whose 50 tests make the same 50 captures through the
// rea-capture/vitest fixture (the scenario each block runs: sh -c, the file's temporary folder, the test defaults)
// and check only the exit code. What differs is the Markdown layer: reading the file, planning the blocks, the
// temporary folder, reading each final screen as text, the self-comparison for unknowns, matching and the records.
// The sum of the 50 tests' durations (Vitest's JSON reporter) is compared, and whole `vitest run` times are kept.
// In one Node process, the same file run as `rea test` runs it is also timed against the same 50 captures made
// directly, alternating, and within the file's run the time spent outside the captures is the layer's own.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { median, medianPairRatio } from './statistics.mjs'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const BLOCKS = 50

const markdown = ['# Fifty blocks', '']
for (let index = 1; index <= BLOCKS; index++) {
  markdown.push(`## Block ${index}`, '', '```console', `$ echo line ${index}`, `line ${index}`, '```', '')
}

const capturesFile = `
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll } from 'vitest'
import { expect, test } from 'rea-capture/vitest'
const folder = mkdtempSync(path.join(tmpdir(), 'rea-bench-captures-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))
for (let index = 1; index <= ${BLOCKS}; index++) {
  test('capture ' + index, async ({ captureProcess }) => {
    const capture = await captureProcess({
      executable: 'sh',
      arguments: ['-c', 'echo line ' + index],
      working_directory: folder,
      environment: {},
      terminal: {},
      events: [],
      timeout_ms: 10_000,
      normalization: { placeholders: ['root', 'cwd', 'home', 'tmpdir'] },
    })
    expect(capture.exit.code).toBe(0)
  })
}
`

/** `rea test`'s engine in this process: the file's run against the 50 captures made one after the other. */
async function inProcess(file, rounds) {
  const rea = await import(path.join(repo, 'dist/front-end.js'))
  const root = path.dirname(file)
  const folder = mkdtempSync(path.join(tmpdir(), 'rea-bench-direct-'))
  const scenario = (index) => ({
    executable: 'sh',
    arguments: ['-c', `echo line ${index}`],
    working_directory: folder,
    environment: {},
    terminal: {},
    events: [],
    timeout_ms: 10_000,
    normalization: { placeholders: ['root', 'cwd', 'home', 'tmpdir'] },
  })
  const capture = (input) => rea.captureProcess(rea.withTestDefaults(input), { root })
  await capture(scenario(0))
  const file_ms = []
  const direct_ms = []
  const layer_ms = []
  try {
    for (let round = 0; round < rounds; round++) {
      let capturing = 0
      const started = performance.now()
      const [run] = await rea.runMarkdownFiles([rea.readMarkdownFile(file)], {
        update: false,
        jobs: 1,
        capture: async (input) => {
          const before = performance.now()
          const evidence = await capture(input)
          capturing += performance.now() - before
          return evidence
        },
      })
      const elapsed = performance.now() - started
      if (run.results.some((result) => result.outcome !== 'passed')) {
        throw new Error('in process: every block should pass')
      }
      file_ms.push(elapsed)
      layer_ms.push(elapsed - capturing)
      const directStarted = performance.now()
      for (let index = 1; index <= BLOCKS; index++) {
        await capture(scenario(index))
      }
      direct_ms.push(performance.now() - directStarted)
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
  return {
    file_median_ms: Math.round(median(file_ms)),
    direct_median_ms: Math.round(median(direct_ms)),
    ratio: Number((median(file_ms) / median(direct_ms)).toFixed(3)),
    pair_ratio: Number(medianPairRatio(file_ms, direct_ms).toFixed(3)),
    layer_median_ms: Math.round(median(layer_ms)),
    layer_per_block_ms: Number((median(layer_ms) / BLOCKS).toFixed(2)),
    layer_share: Number((median(layer_ms) / median(file_ms)).toFixed(3)),
  }
}

export async function runMarkdownBenchmark({ rounds = 9 } = {}) {
  const project = mkdtempSync(path.join(tmpdir(), 'rea-bench-markdown-'))
  try {
    mkdirSync(path.join(project, 'node_modules'))
    symlinkSync(repo, path.join(project, 'node_modules/rea-capture'))
    writeFileSync(path.join(project, 'package.json'), '{"type":"module","private":true}\n')
    writeFileSync(
      path.join(project, 'vitest.config.mjs'),
      "import { reaMarkdown } from 'rea-capture/vitest-markdown'\nexport default { plugins: [reaMarkdown()], test: { include: ['blocks.md', 'captures.test.mjs'] } }\n",
    )
    writeFileSync(path.join(project, 'blocks.md'), markdown.join('\n'))
    writeFileSync(path.join(project, 'captures.test.mjs'), capturesFile)
    const sides = { markdown: { tests: [], wall: [] }, captures: { tests: [], wall: [] } }
    const runVitest = (side, file) => {
      const output = path.join(project, `${side}.json`)
      const started = performance.now()
      execFileSync(
        process.execPath,
        [
          path.join(repo, 'node_modules/vitest/vitest.mjs'),
          'run',
          file,
          '--root',
          project,
          '--reporter=json',
          `--outputFile=${output}`,
        ],
        { stdio: 'ignore', env: { ...process.env, CI: '', GITHUB_ACTIONS: '' } },
      )
      sides[side].wall.push(performance.now() - started)
      const results = JSON.parse(readFileSync(output, 'utf8')).testResults.flatMap(
        (file) => file.assertionResults,
      )
      if (results.length !== BLOCKS || results.some((result) => result.status !== 'passed')) {
        throw new Error(`${side}: expected ${BLOCKS} passing tests`)
      }
      sides[side].tests.push(results.reduce((total, result) => total + result.duration, 0))
    }
    for (let round = 0; round < rounds; round++) {
      runVitest('markdown', 'blocks.md')
      runVitest('captures', 'captures.test.mjs')
    }
    const { markdown: md, captures } = sides
    const direct = await inProcess(path.join(project, 'blocks.md'), rounds)
    return {
      in_process: direct,
      blocks: BLOCKS,
      rounds,
      markdown_tests_median_ms: Math.round(median(md.tests)),
      captures_tests_median_ms: Math.round(median(captures.tests)),
      ratio: Number((median(md.tests) / median(captures.tests)).toFixed(3)),
      pair_ratio: Number(medianPairRatio(md.tests, captures.tests).toFixed(3)),
      markdown_whole_run_median_ms: Math.round(median(md.wall)),
      captures_whole_run_median_ms: Math.round(median(captures.wall)),
      whole_run_ratio: Number((median(md.wall) / median(captures.wall)).toFixed(3)),
      markdown_tests_runs_ms: md.tests.map(Math.round),
      captures_tests_runs_ms: captures.tests.map(Math.round),
    }
  } finally {
    rmSync(project, { recursive: true, force: true })
  }
}
