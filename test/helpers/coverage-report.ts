import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'
import { runRunnerCli, type RunnerCliResult } from './run-runner-cli.js'
import { VITEST_CLI } from './vitest-under-test.js'

/*
 * Reading what a runner's coverage reporters wrote for the runner-coverage fixture project
 * (test/fixtures/projects/runner-coverage), the same way for Vitest and Jest.
 */

/**
 * How often each named function of the fixture ran in one whole run of its test files, summed over its workers:
 * greetFromCapture runs once per captured run of cli.cjs that wrote coverage (greet, spawn, exit, the one ended
 * by SIGTERM it handles, and again.*'s greet; not the one killed by SIGKILL); doubleInProcess runs only in the
 * test process; grandchildWork in the CLI's own child; toolReached in out/tool.js, reported through its map.
 */
export const EXPECTED_FUNCTION_COUNTS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  'lib.cjs': { doubleInProcess: 1, greetFromCapture: 5, neverRun: 0 },
  'cli.cjs': { afterExit: 0, waitForever: 1 },
  'child.cjs': { grandchildWork: 1 },
  'src/tool.ts': { toolReached: 1, toolNever: 0 },
}

interface IstanbulFile {
  readonly fnMap: Record<string, { readonly name: string }>
  readonly f: Record<string, number>
}

/** coverage-final.json as function counts by name (summed: Jest maps esbuild's export getters to line 1 too). */
export function functionCounts(project: string): Record<string, Record<string, number>> {
  const report = JSON.parse(
    readFileSync(path.join(project, 'coverage/coverage-final.json'), 'utf8'),
  ) as Record<string, IstanbulFile>
  const counts: Record<string, Record<string, number>> = {}
  for (const [file, data] of Object.entries(report)) {
    const byName: Record<string, number> = {}
    for (const [id, fn] of Object.entries(data.fnMap)) {
      if (!fn.name.startsWith('(anonymous')) {
        byName[fn.name] = (byName[fn.name] ?? 0) + (data.f[id] ?? 0)
      }
    }
    counts[path.relative(project, file).split(path.sep).join('/')] = byName
  }
  return counts
}

/** The fixture's counts as a run reported them: each expected function, nothing else of those files. */
export function expectFixtureCounts(project: string): void {
  const counts = functionCounts(project)
  for (const [file, expected] of Object.entries(EXPECTED_FUNCTION_COUNTS)) {
    expect(counts[file], `functions of ${file} in coverage-final.json`).toMatchObject(expected)
  }
}

/** The uncovered line numbers the text report (coverage/coverage.txt) lists for one file. */
export function uncoveredLines(project: string, file: string): number[] {
  const text = readFileSync(path.join(project, 'coverage/coverage.txt'), 'utf8')
  const row = text.split('\n').find((line) => line.trim().startsWith(`${file} `))
  expect(row, `a row for ${file} in the text report:\n${text}`).toBeDefined()
  const cells = (row ?? '').split('|')
  return (cells.at(-1) ?? '')
    .split(',')
    .map((range) => range.trim())
    .filter((range) => range !== '')
    .flatMap((range) => {
      const [from, to = from] = range.split('-').map(Number)
      return Array.from(
        { length: (to as number) - (from as number) + 1 },
        (_, index) => (from as number) + index,
      )
    })
}

/** The line of lib.cjs where `text` is. */
export function lineOf(project: string, file: string, text: string): number {
  const lines = readFileSync(path.join(project, file), 'utf8').split('\n')
  return lines.findIndex((line) => line.includes(text)) + 1
}

/**
 * Every reporter's output: the text report shows neverRun's body uncovered and greetFromCapture's covered; lcov
 * counts greetFromCapture; the HTML report has a page for lib.cjs.
 */
export function expectEveryReporter(project: string): void {
  const uncovered = uncoveredLines(project, 'lib.cjs')
  expect(uncovered).toContain(lineOf(project, 'lib.cjs', "const unused = 'never'"))
  expect(uncovered).not.toContain(lineOf(project, 'lib.cjs', 'letters.push(letter.toUpperCase())'))
  expect(uncovered).not.toContain(lineOf(project, 'lib.cjs', 'return value * 2'))
  expect(readFileSync(path.join(project, 'coverage/lcov.info'), 'utf8')).toContain('FNDA:5,greetFromCapture')
  expect(htmlPages(path.join(project, 'coverage'))).toContain('lib.cjs.html')
}

function htmlPages(folder: string): string[] {
  return existsSync(folder)
    ? readdirSync(folder, { recursive: true, encoding: 'utf8' }).map((entry) => path.basename(entry))
    : []
}

/** Runs without coverage need only the test that matches an authority. */
export const GREETING_ONLY = ['--testNamePattern', 'greets through a capture']

/**
 * `vitest run <args>` in a copy of the fixture project, with the Vitest under test (vitest-under-test.ts); with
 * `--coverage`, the fixture's internals.vitest.mjs checks what REA found in Vitest.
 */
export function runFixtureVitest(
  project: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<RunnerCliResult> {
  const pin = args.includes('--coverage') ? { FIXTURE_PIN_INTERNALS: '1' } : {}
  return runRunnerCli(VITEST_CLI, ['run', ...args], project, { ...pin, ...env })
}

/** The run passed, and REA had nothing to say: no hook missing, no script left out. */
export function expectRunnerPassed(result: RunnerCliResult): void {
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0)
  expect(result.stderr).not.toContain('rea-capture:')
}

/** The one authority file the fixture records ("greets through a capture"). */
export function authorityText(project: string): string {
  const folder = path.join(project, '__captures__')
  const files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) =>
    name.endsWith('.json'),
  )
  expect(files).toHaveLength(1)
  return readFileSync(path.join(folder, files[0] as string), 'utf8')
}
