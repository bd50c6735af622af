import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { comparisonSchema } from '../../src/compare/comparison-schema.js'
import { readEvidenceFileSync } from '../../src/evidence/load.js'
import { REPORT_FORMAT } from '../../src/report/report-model.js'
import { fixtureProjects } from '../helpers/fixture-project.js'
import { runRunnerCli } from '../helpers/run-runner-cli.js'
import { VITEST_CLI, VITEST_DEFAULT_FOLDERS } from '../helpers/vitest-under-test.js'

const projectCopy = fixtureProjects('vitest-report')

/** Runs the real Vitest CLI in the project. */
function vitest(project: string, args: string[], env: Record<string, string> = {}) {
  return runRunnerCli(VITEST_CLI, ['run', ...args], project, env)
}

interface IndexEntry {
  readonly test_file: string
  readonly test_name: string
  readonly matcher: string
  readonly outcome: string
  readonly passed: boolean
  readonly location: { file: string; line: number; column: number } | null
  readonly first_divergence: { dimension: string; field: string } | null
  readonly authority_path: string | null
  readonly files: Record<string, string | null>
}

interface ReportIndex {
  readonly format: string
  readonly runner: string
  readonly totals: Record<string, number>
  readonly entries: readonly IndexEntry[]
}

function readIndex(report: string): ReportIndex {
  return JSON.parse(readFileSync(path.join(report, 'index.json'), 'utf8')) as ReportIndex
}

function entryFor(index: ReportIndex, file: string, matcher = 'toMatchCapture'): IndexEntry {
  const entry = index.entries.find(
    (candidate) => candidate.test_file === file && candidate.matcher === matcher,
  )
  expect(entry, `an entry for ${matcher} in ${file}`).toBeDefined()
  return entry!
}

/** The line of the first `.toMatchCapture(` in a fixture test file, as an editor numbers it. */
function assertionLine(project: string, file: string): number {
  const lines = readFileSync(path.join(project, file), 'utf8').split('\n')
  return lines.findIndex((line) => line.includes('.toMatchCapture(')) + 1
}

describe('rea-capture/reporter with the real Vitest CLI', () => {
  test('a passing and a failing capture produce the documented folder, GitHub output and JUnit attachments', async () => {
    const project = projectCopy()
    const report = path.join(project, 'rea-report')
    const stepSummary = path.join(project, 'step-summary.md')
    const first = await vitest(
      project,
      [
        '--update',
        '--reporter=default',
        '--reporter=rea-capture/reporter',
        '--reporter=junit',
        '--outputFile.junit=junit.xml',
      ],
      {
        FIXTURE_FAIL: '1',
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: stepSummary,
        GITHUB_WORKSPACE: project,
      },
    )
    expect(first.code, first.stderr).toBe(1)

    const index = readIndex(report)
    expect(index.format).toBe(REPORT_FORMAT)
    expect(index.runner).toBe('vitest')
    expect(index.totals).toMatchObject({
      assertions: 3,
      tests: 2,
      written: 1,
      matched: 1,
      different: 1,
      failed: 1,
    })

    // The failing capture: both sides' Evidence, the comparison document and a divergence file naming the spot.
    const failing = entryFor(index, 'differs.test.mjs')
    expect(failing).toMatchObject({ outcome: 'different', passed: false, authority_path: null })
    expect(failing.first_divergence).toMatchObject({ dimension: 'terminal', field: 'terminal.stream' })
    expect(failing.location).toEqual({
      file: 'differs.test.mjs',
      line: assertionLine(project, 'differs.test.mjs'),
      column: expect.any(Number),
    })
    const reconstruction = readEvidenceFileSync(path.join(report, failing.files['reconstruction']!))
    expect(reconstruction.terminal.chunks.map((chunk) => chunk.data).join('')).toContain('Good day, Ada!')
    const authority = readEvidenceFileSync(path.join(report, failing.files['authority_copy']!))
    expect(authority.terminal.chunks.map((chunk) => chunk.data).join('')).toContain('Hello, Ada!')
    const comparison = comparisonSchema.parse(
      JSON.parse(readFileSync(path.join(report, failing.files['comparison']!), 'utf8')),
    )
    expect(comparison.verdict).toBe('different')
    const divergence = readFileSync(path.join(report, failing.files['divergence']!), 'utf8')
    expect(divergence).toContain('## First divergence')
    expect(divergence).toContain('line 2, column 1')
    expect(divergence).toMatch(/^-Hello, Ada!$/m)
    expect(divergence).toMatch(/^\+Good day, Ada!$/m)
    // The page to look at it: both sides, the verdict, and a link from divergence.md and summary.md.
    const page = readFileSync(path.join(report, failing.files['divergence_page']!), 'utf8')
    expect(page).toContain('<span id="rea-verdict" class="badge bad">different</span>')
    expect(page).toContain('Good day, Ada!')
    expect(page).toContain('Hello, Ada!')
    expect(divergence).toContain('[divergence.html](divergence.html)')

    // The passing capture wrote its authority; the report names it and holds the Evidence.
    const passing = entryFor(index, 'greets.test.mjs')
    expect(passing).toMatchObject({ outcome: 'written', passed: true, first_divergence: null })
    expect(passing.files['divergence_page']).toBeNull()
    expect(passing.authority_path).toMatch(
      /^__captures__\/greets\.test\.mjs\/greets Ada 1-[0-9a-f]{8}\.capture\.json$/,
    )
    expect(existsSync(path.join(project, passing.authority_path!))).toBe(true)
    readEvidenceFileSync(path.join(report, passing.files['reconstruction']!))
    expect(entryFor(index, 'greets.test.mjs', 'toSatisfyTrace')).toMatchObject({ outcome: 'matched' })

    const summary = readFileSync(path.join(report, 'summary.md'), 'utf8')
    expect(summary).toContain('3 capture assertions in 2 tests')
    expect(summary).toContain('greets the same way twice')
    expect(summary).toContain(`([page](${encodeURI(failing.files['divergence_page']!)}))`)

    // The failure's pictures: both sides' final screens, beside the page.
    const finalScreens = readFileSync(path.join(report, failing.files['final_screens']!), 'utf8')
    expect(finalScreens).toContain('Hello, Ada!')
    expect(finalScreens).toContain('Good day, Ada!')
    expect(divergence).toContain('![The final screens of both sides](final-screens.svg)')

    // Console: totals and the failure's first divergence on one line, quoting the row that changed.
    expect(first.stdout).toContain('3 capture assertions in 2 tests: 1 matched, 1 different, 0 unknown')
    expect(first.stdout).toContain('1 authority written, 0 updated; 1 failed')
    expect(first.stdout).toMatch(
      /✗ differs\.test\.mjs:\d+ greets the same way twice: screen checkpoint \d+ \([a-z ]+\), row 2: "Hello, Ada!" → "Good day, Ada!"/,
    )
    expect(first.stdout).toMatch(
      /::error file=differs\.test\.mjs,[^\n]*::screen checkpoint \d+ \([a-z ]+\), row 2: "Hello, Ada!" → "Good day, Ada!"%0A/,
    )

    // GitHub Actions: an error annotation at the assertion, and the step summary.
    expect(first.stdout).toContain(
      `::error file=differs.test.mjs,line=${failing.location!.line},col=${failing.location!.column},title=REA capture different%3A greets the same way twice::`,
    )
    expect(readFileSync(stepSummary, 'utf8')).toContain('## REA process capture')

    // JUnit: the failing test case's system-out points at its files.
    const junit = readFileSync(path.join(project, 'junit.xml'), 'utf8')
    const failingCase =
      /<testcase [^>]*name="greets the same way twice"[\s\S]*?<\/testcase>/.exec(junit)?.[0] ?? ''
    expect(failingCase).toContain('<system-out>')
    expect(failingCase).toContain(`[[ATTACHMENT|${path.join(report, failing.files['divergence']!)}]]`)
    expect(failingCase).toContain(`[[ATTACHMENT|${path.join(report, failing.files['divergence_page']!)}]]`)
    const passingCase = /<testcase [^>]*name="greets Ada"[\s\S]*?<\/testcase>/.exec(junit)?.[0] ?? ''
    expect(passingCase).not.toContain('[[ATTACHMENT|')

    // The next run replaces the folder: the failing test is skipped now, and its files are gone.
    const second = await vitest(project, ['--reporter=default', '--reporter=rea-capture/reporter'])
    expect(second.code, second.stderr).toBe(0)
    const next = readIndex(report)
    expect(next.totals).toMatchObject({ assertions: 2, matched: 2, failed: 0 })
    expect(existsSync(path.join(report, failing.files['divergence']!))).toBe(false)
    expect(readdirSync(report).sort()).toEqual(['.rea-report', 'greets.test.mjs', 'index.json', 'summary.md'])

    // Without a JUnit reporter nobody reads attachment lines: a failure prints none.
    const third = await vitest(project, ['--reporter=default', '--reporter=rea-capture/reporter'], {
      FIXTURE_FAIL: '1',
    })
    expect(third.code).toBe(1)
    expect(third.stdout + third.stderr).not.toContain('[[ATTACHMENT|')
  })

  test('two shards written as blob reports and merged keep every capture', async () => {
    const project = projectCopy()
    const report = path.join(project, 'rea-report')
    // Record the passing test's authority first, so both shards compare.
    expect((await vitest(project, ['--update', '--reporter=dot'])).code).toBe(0)
    const codes: number[] = []
    // Each shard writes its blob where this Vitest puts them by default, and the merge finds them there.
    for (const shard of ['1/2', '2/2']) {
      const result = await vitest(
        project,
        [`--shard=${shard}`, '--reporter=blob'],
        // No rea-capture/reporter in a blob-only shard: the matchers record because they are asked to.
        { FIXTURE_FAIL: '1', REA_REPORT_RECORD: '1' },
      )
      codes.push(result.code)
    }
    // One file per shard: the one with the failing test fails.
    expect(codes.sort()).toEqual([0, 1])
    expect(readdirSync(path.join(project, VITEST_DEFAULT_FOLDERS.blobs)).sort()).toEqual([
      'blob-1-2.json',
      'blob-2-2.json',
    ])
    expect(existsSync(report)).toBe(false)

    const merged = await vitest(project, ['--merge-reports', '--reporter=rea-capture/reporter'])
    expect(merged.code).toBe(1)
    const index = readIndex(report)
    expect(index.totals).toMatchObject({ assertions: 3, tests: 2, matched: 2, different: 1 })
    for (const entry of index.entries) {
      if (entry.files['reconstruction'] !== null) {
        readEvidenceFileSync(path.join(report, entry.files['reconstruction']!))
      }
      expect(existsSync(path.join(report, entry.files['divergence']!))).toBe(true)
    }
    expect(entryFor(index, 'differs.test.mjs').first_divergence).toMatchObject({ dimension: 'terminal' })
  })

  test('a reporter that cannot write its folder warns and leaves the exit code alone', async () => {
    const project = projectCopy()
    // A folder REA did not create, holding someone's files: the reporter must not replace it.
    const foreign = path.join(project, 'not-a-report')
    mkdirSync(foreign)
    writeFileSync(path.join(foreign, 'keep.txt'), 'mine')
    const passing = await vitest(project, ['--update'], { FIXTURE_REPORT_DIR: 'not-a-report' })
    expect(passing.code, passing.stderr).toBe(0)
    expect(passing.stderr + passing.stdout).toContain('rea-capture/reporter: could not write the report')
    expect(readdirSync(foreign)).toEqual(['keep.txt'])

    const failing = await vitest(project, [], {
      FIXTURE_REPORT_DIR: 'not-a-report',
      FIXTURE_FAIL: '1',
      GITHUB_ACTIONS: 'true',
    })
    expect(failing.code).toBe(1)
    expect(failing.stderr + failing.stdout).toContain('rea-capture/reporter: could not write the report')
    // Annotations and the console summary need no folder: they still come.
    expect(failing.stdout).toContain('::error file=differs.test.mjs,')
    expect(failing.stdout).toMatch(/✗ differs\.test\.mjs:\d+ greets the same way twice/)
    expect(readdirSync(foreign)).toEqual(['keep.txt'])

    const badOptions = await vitest(project, [], { FIXTURE_REPORT_DIR: '' })
    expect(badOptions.code, badOptions.stderr).toBe(0)
    expect(badOptions.stderr + badOptions.stdout).toContain(
      'rea-capture/reporter: ignoring invalid reporter options (outputDir',
    )
  })
})
