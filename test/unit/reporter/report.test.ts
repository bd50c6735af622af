import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { afterEach, describe, expect, test } from 'vitest'
import { REPORT_MARKER, resetReportFolder, writeReport } from '../../../src/report/artifact-writer.js'
import { annotationCommands, appendStepSummary } from '../../../reporter/github.js'
import { divergenceMarkdown, summaryMarkdown } from '../../../src/report/report-markdown.js'
import {
  configuresJUnitReporter,
  consoleSummary,
  resolveReporterOptions,
} from '../../../reporter/report-run.js'
import {
  ASSERTION_RECORD_FORMAT,
  locationInTestFile,
  type AssertionOutcome,
  type AssertionRecord,
} from '../../../src/report/assertion-record.js'
import type { Comparison, Difference } from '../../../src/compare/comparison-schema.js'
import {
  buildReportModel,
  entryDirectory,
  failureHeadline,
  failuresByPriority,
} from '../../../src/report/report-model.js'
import { rawControlCharacters } from '../../helpers/control-characters.js'

const ROOT = '/repo'

function record(
  name: string,
  outcome: AssertionOutcome,
  overrides: Partial<AssertionRecord> = {},
): AssertionRecord {
  const passed = outcome === 'matched' || outcome === 'written' || outcome === 'updated'
  return {
    format: ASSERTION_RECORD_FORMAT,
    format_version: 1,
    matcher: 'toMatchCapture',
    project: '',
    test_file: '/repo/test/cli.test.ts',
    test_name: name,
    attempt: { retry: 0, repeat: 0 },
    entry: 1,
    location: { file: '/repo/test/cli.test.ts', line: 10, column: 5 },
    negated: false,
    outcome,
    passed,
    message: outcome === 'error' ? `expect(capture).toMatchCapture(): ${name} has no authority` : null,
    authority_path: null,
    comparison: null,
    trace: null,
    reconstruction: null,
    authority_evidence: null,
    ...overrides,
  }
}

const key = (testFile: string, testName: string, entry: number, project = '') => ({
  project,
  test_file: testFile,
  test_name: testName,
  entry,
})

const folders: string[] = []
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })))
function scratch(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'rea-report-unit-'))
  folders.push(folder)
  return folder
}

describe('report model', () => {
  test('entry folders are stable, POSIX, named after the test, and kept apart for files outside the root', () => {
    expect(entryDirectory(ROOT, key('/repo/test/cli.test.ts', 'prompt > greets', 2))).toMatch(
      /^test\/cli\.test\.ts\/prompt › greets 2-[0-9a-f]{8}$/,
    )
    expect(entryDirectory(ROOT, key('/elsewhere/x.test.ts', 'a', 1))).toMatch(
      /^_outside-root\/-elsewhere-x\.test\.ts-[0-9a-f]{8}\/a 1-/,
    )
    expect(entryDirectory(ROOT, key('/repo/a.test.ts', 'a', 1))).not.toBe(
      entryDirectory(ROOT, key('/repo/a.test.ts', 'a', 2)),
    )
  })

  test('one file in two projects keeps an entry for each', () => {
    const model = buildReportModel(
      [record('a', 'matched', { project: 'node' }), record('a', 'different', { project: 'browser' })],
      ROOT,
    )
    expect(model.entries.map((entry) => entry.directory)).toEqual([
      expect.stringMatching(/^_project-browser-[0-9a-f]{8}\/test\/cli\.test\.ts\/a 1-/),
      expect.stringMatching(/^_project-node-[0-9a-f]{8}\/test\/cli\.test\.ts\/a 1-/),
    ])
    expect(model.totals).toMatchObject({ tests: 2, failed: 1 })
  })

  test('a failing repeat is kept over a later passing one; a later retry replaces both', () => {
    const repeat = (outcome: AssertionOutcome, retry: number, repeat: number) =>
      record('r', outcome, { attempt: { retry, repeat } })
    const repeats = buildReportModel([repeat('different', 0, 0), repeat('matched', 0, 1)], ROOT)
    expect(repeats.entries.map((entry) => entry.record.outcome)).toEqual(['different'])
    const retried = buildReportModel([repeat('different', 0, 0), repeat('matched', 1, 0)], ROOT)
    expect(retried.entries.map((entry) => entry.record.outcome)).toEqual(['matched'])
  })

  test('a failure the passing test expected is not counted as failed', () => {
    const model = buildReportModel([record('expected', 'different')], ROOT, () => true)
    expect(model.totals).toMatchObject({ different: 1, failed: 0 })
    expect(failuresByPriority(model)).toEqual([])
  })

  test('a test that ran twice keeps its last record, and totals count entries once', () => {
    const model = buildReportModel(
      [
        record('flaky', 'different'),
        record('flaky', 'matched', { attempt: { retry: 1, repeat: 0 } }),
        record('other', 'written'),
      ],
      ROOT,
    )
    expect(model.entries.map((entry) => [entry.record.test_name, entry.record.outcome])).toEqual([
      ['flaky', 'matched'],
      ['other', 'written'],
    ])
    expect(model.totals).toMatchObject({ assertions: 2, tests: 2, matched: 1, written: 1, failed: 0 })
  })

  test('failures come proven differences first, one per test before any test’s second', () => {
    const model = buildReportModel(
      [
        record('a', 'error'),
        record('a', 'different', { entry: 2 }),
        record('b', 'unknown'),
        record('c', 'different'),
        record('d', 'matched'),
      ],
      ROOT,
    )
    expect(
      failuresByPriority(model).map((entry) => `${entry.record.test_name}:${entry.record.outcome}`),
    ).toEqual(['c:different', 'b:unknown', 'a:error', 'a:different'])
  })
})

describe('GitHub Actions output', () => {
  test('annotations stop at the limit and say how many were left out', () => {
    const model = buildReportModel(
      Array.from({ length: 15 }, (_, index) => record(`t${String(index).padStart(2, '0')}`, 'error')),
      ROOT,
    )
    const commands = annotationCommands(model, { limit: 10, workspace: ROOT, reportLabel: 'rea-report' })
    expect(commands).toHaveLength(10)
    expect(
      commands
        .slice(0, 9)
        .every((command) => command.startsWith('::error file=test/cli.test.ts,line=10,col=5,')),
    ).toBe(true)
    expect(commands[9]).toContain('6 more failed capture assertions not annotated')
    expect(
      annotationCommands(buildReportModel([record('a', 'error')], ROOT), {
        limit: 10,
        workspace: ROOT,
        reportLabel: 'r',
      }),
    ).toHaveLength(1)
    expect(annotationCommands(model, { limit: 0, workspace: ROOT, reportLabel: 'r' })).toEqual([])
  })

  test('a limit of one sends the most telling failure, not only the notice', () => {
    const model = buildReportModel([record('a', 'error'), record('b', 'different')], ROOT)
    const commands = annotationCommands(model, { limit: 1, workspace: ROOT, reportLabel: 'r' })
    expect(commands).toHaveLength(1)
    expect(commands[0]).toContain('title=REA capture different%3A b')
  })

  test('workflow-command data and properties are escaped', () => {
    const model = buildReportModel([record('50%, a: b\nc', 'error')], ROOT)
    const [command] = annotationCommands(model, { limit: 10, workspace: ROOT, reportLabel: 'r' })
    expect(command).toContain('title=REA capture error%3A 50%25%2C a%3A b%0Ac::')
    // The headline is the message's first line; the pointer to the details follows on its own line.
    expect(command!.split('::')[2]).toMatch(/^50%25, a: b%0ADetails: r\/test\/cli\.test\.ts\//)
    expect(command).not.toContain('\n')
  })

  test('the step summary is trimmed to its budget and is not written into a nearly full file', () => {
    const model = buildReportModel(
      Array.from({ length: 400 }, (_, index) => record(`test ${index} ${'x'.repeat(100)}`, 'error')),
      ROOT,
    )
    const text = summaryMarkdown(model, {
      root: ROOT,
      reportLabel: 'rea-report',
      links: false,
      maxBytes: 8 * 1024,
    })
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(8 * 1024)
    expect(text).toMatch(/… \d+ more rows left out to stay under the size limit/)

    const folder = scratch()
    const full = path.join(folder, 'summary.md')
    writeFileSync(full, 'x'.repeat(1024 * 1024 - 2000))
    appendStepSummary(model, full, ROOT, 'rea-report')
    expect(readFileSync(full, 'utf8')).not.toContain('REA')
    const empty = path.join(folder, 'empty.md')
    appendStepSummary(model, empty, ROOT, 'rea-report')
    expect(Buffer.byteLength(readFileSync(empty))).toBeLessThanOrEqual(512 * 1024)
  })
})

describe('report folder', () => {
  test('a folder REA did not write is never cleared; its own and empty ones are', () => {
    const folder = scratch()
    const foreign = path.join(folder, 'foreign')
    mkdirSync(foreign)
    writeFileSync(path.join(foreign, 'notes.txt'), 'mine')
    expect(() => resetReportFolder(foreign)).toThrow(/holds files REA did not write/)
    expect(readdirSync(foreign)).toEqual(['notes.txt'])

    const ours = path.join(folder, 'ours')
    writeReport(buildReportModel([record('a', 'error')], ROOT), {
      outputDir: ours,
      root: ROOT,
      runner: 'vitest',
    })
    expect(readdirSync(ours).sort()).toEqual([REPORT_MARKER, 'index.json', 'summary.md', 'test'])
    writeFileSync(path.join(ours, 'stale.txt'), '')

    // A later run removes what REA wrote and nothing else.
    mkdirSync(path.join(ours, 'coverage'))
    writeFileSync(path.join(ours, 'coverage/index.html'), '')
    writeReport(buildReportModel([record('b', 'error')], ROOT), {
      outputDir: ours,
      root: ROOT,
      runner: 'vitest',
    })
    const warnings: string[] = []
    writeReport(buildReportModel([], ROOT), { outputDir: ours, root: ROOT, runner: 'vitest' }, (message) =>
      warnings.push(message),
    )
    expect(readdirSync(ours).sort()).toEqual([
      REPORT_MARKER,
      'coverage',
      'index.json',
      'stale.txt',
      'summary.md',
    ])
    expect(warnings).toEqual([expect.stringContaining('left "coverage", "stale.txt" in')])

    writeFileSync(path.join(folder, 'file'), '')
    expect(() => resetReportFolder(path.join(folder, 'file'))).toThrow(/not a folder/)
  })
})

test('a file left in the report folder is named, with the folder, by the one escaping rule', () => {
  const ours = path.join(scratch(), 'out\nx')
  mkdirSync(ours)
  writeFileSync(path.join(ours, REPORT_MARKER), '')
  writeFileSync(path.join(ours, 'a\u001b[2Jb'), '')
  const warnings: string[] = []
  resetReportFolder(ours, (message) => warnings.push(message))
  expect(warnings).toEqual([`left "a\\e[2Jb" in "${path.dirname(ours)}/out\\nx": REA did not write it.`])
})

describe('obsolete authority files', () => {
  const obsolete = [
    {
      file: '/repo/test/__captures__/cli.test.ts/old 1-0123abcd.capture.json',
      testFile: '/repo/test/cli.test.ts',
      reason: 'unused' as const,
      removed: false,
    },
    {
      file: '/repo/test/__captures__/gone.test.ts/x 1-89abcdef.capture.json',
      testFile: '/repo/test/gone.test.ts',
      reason: 'test_file_deleted' as const,
      removed: false,
    },
  ]

  test('are listed in index.json, summary.md and the console, with the command that removes them', () => {
    const folder = scratch()
    const model = buildReportModel([record('a', 'matched')], ROOT, undefined, obsolete)
    writeReport(model, { outputDir: folder, root: ROOT, runner: 'jest' })
    const index = JSON.parse(readFileSync(path.join(folder, 'index.json'), 'utf8')) as Record<string, unknown>
    expect(index['obsolete_authorities']).toEqual([
      {
        path: 'test/__captures__/cli.test.ts/old 1-0123abcd.capture.json',
        test_file: 'test/cli.test.ts',
        reason: 'unused',
        removed: false,
      },
      {
        path: 'test/__captures__/gone.test.ts/x 1-89abcdef.capture.json',
        test_file: 'test/gone.test.ts',
        reason: 'test_file_deleted',
        removed: false,
      },
    ])
    const summary = readFileSync(path.join(folder, 'summary.md'), 'utf8')
    expect(summary).toContain('### Obsolete authority files')
    expect(summary).toContain(
      '2 obsolete authority files: no assertion of this run used them; `jest -u` removes them.',
    )
    expect(summary).toContain(
      '| `test/__captures__/gone.test.ts/x 1-89abcdef.capture.json (its test file is gone)` | no |',
    )
    const text = stripVTControlCharacters(consoleSummary(model, 'rea-report', ROOT, 'jest -u'))
    expect(text).toContain('↳ test/__captures__/cli.test.ts/old 1-0123abcd.capture.json')
    const removed = obsolete.map((entry) => ({ ...entry, removed: true }))
    expect(consoleSummary(buildReportModel([], ROOT, undefined, removed), 'r', ROOT)).toContain(
      '2 obsolete authority files removed',
    )
  })
})

describe('reporter options', () => {
  test('invalid options are a warning naming the field, and the defaults apply', () => {
    const warnings: string[] = []
    const options = resolveReporterOptions({ outputDir: 3, junitAttachments: 'some' }, ROOT, (message) =>
      warnings.push(message),
    )
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/outputDir: .*junitAttachments: /)
    expect(options).toMatchObject({
      outputDir: '/repo/rea-report',
      junitAttachments: 'off',
      console: true,
    })
  })

  test('JUnit attachment lines default to failures only when a JUnit reporter is configured', () => {
    const none = () => undefined
    expect(resolveReporterOptions({}, ROOT, none).junitAttachments).toBe('off')
    expect(resolveReporterOptions({}, ROOT, none, true).junitAttachments).toBe('failures')
    expect(resolveReporterOptions({ junitAttachments: 'all' }, ROOT, none).junitAttachments).toBe('all')
    expect(resolveReporterOptions({ junitAttachments: 'off' }, ROOT, none, true).junitAttachments).toBe('off')
  })

  class JUnitReporter {
    onInit(): void {}
  }
  test.each<[unknown, boolean]>([
    [['default', 'rea-capture/reporter'], false],
    [['default', ['junit', { outputFile: 'junit.xml' }]], true],
    [['default', ['jest-junit', {}]], true],
    [[new JUnitReporter()], true],
    [[{ onInit() {} }], false],
    [undefined, false],
  ])('finds a JUnit reporter in %j: %s', (reporters, found) => {
    expect(configuresJUnitReporter(reporters)).toBe(found)
  })

  test('one invalid option falls back alone: the others keep their values', () => {
    const warnings: string[] = []
    const options = resolveReporterOptions(
      { outputDir: 'reports', junitAttachments: 'some', github: 'yes', colour: true, toString: 1 },
      ROOT,
      (message) => warnings.push(message),
    )
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(
      /junitAttachments: .*github: .*colour: unknown option; toString: unknown option/,
    )
    expect(options).toMatchObject({ outputDir: '/repo/reports', junitAttachments: 'off', console: true })
  })

  test('GitHub output follows GITHUB_ACTIONS unless configured', () => {
    const saved = process.env['GITHUB_ACTIONS']
    try {
      process.env['GITHUB_ACTIONS'] = 'true'
      expect(resolveReporterOptions({}, ROOT, () => {})).toMatchObject({ annotations: 10, stepSummary: true })
      expect(resolveReporterOptions({ github: false }, ROOT, () => {})).toMatchObject({
        annotations: 0,
        stepSummary: false,
      })
      delete process.env['GITHUB_ACTIONS']
      expect(resolveReporterOptions({}, ROOT, () => {})).toMatchObject({ annotations: 0, stepSummary: false })
      expect(resolveReporterOptions({ github: { annotations: 3 } }, ROOT, () => {})).toMatchObject({
        annotations: 3,
        stepSummary: true,
      })
    } finally {
      if (saved === undefined) {
        delete process.env['GITHUB_ACTIONS']
      } else {
        process.env['GITHUB_ACTIONS'] = saved
      }
    }
  })
})

describe('assertion location', () => {
  test('the first frame in the test file, from plain paths and file URLs', () => {
    const stack = [
      'Error: location',
      '    at assertionLocation (/repo/dist/chunk.js:10:3)',
      '    at Object.toMatchCapture (file:///repo/test/cli.test.ts:14:19)',
      '    at /repo/test/cli.test.ts:20:1',
    ].join('\n')
    expect(locationInTestFile('/repo/test/cli.test.ts', stack)).toEqual({
      file: '/repo/test/cli.test.ts',
      line: 14,
      column: 19,
    })
    expect(locationInTestFile('/repo/other.test.ts', stack)).toBeNull()
    const odd = '/home/me/My Projects/app/(group)/a.test.ts'
    const oddStack = `Error: location\n    at Object.toMatchCapture (${odd}:3:7)\n    at ${odd}:9:1`
    expect(locationInTestFile(odd, oddStack)).toEqual({ file: odd, line: 3, column: 7 })
  })
})

describe('divergence.md', () => {
  const dimension = (
    outcome: string,
    differences: Difference[] = [],
    unknowns: { reason: string; detail: string }[] = [],
  ) => ({
    outcome,
    differences,
    differences_omitted: 0,
    unknowns,
    notes: [],
  })
  const exitDifference: Difference = {
    dimension: 'exit',
    field: 'exit.code',
    summary: 'the exit code differs',
    authority: 0,
    reconstruction: 1,
    location: { kind: 'exit', field: 'code' },
  }

  test('a proven difference behind an unknown dimension is listed, and is the headline', () => {
    const comparison = {
      verdict: 'different',
      verdict_basis: 'dimensions',
      dimensions: {
        terminal: dimension('unknown', [], [{ reason: 'terminal_output_omitted', detail: 'output was cut' }]),
        interaction: dimension('equal'),
        exit: dimension('different', [exitDifference]),
        filesystem: dimension('not_selected'),
        process: dimension('equal'),
      },
      first_divergence: null,
      unknowns: [{ dimension: 'terminal', reason: 'terminal_output_omitted', detail: 'output was cut' }],
      terminal_diff: null,
      trace: null,
    } as unknown as Comparison
    const model = buildReportModel([record('cut', 'different', { comparison })], ROOT)
    const page = divergenceMarkdown(model.entries[0]!, ROOT)
    expect(page).toContain('## Differences')
    expect(page).toContain('the exit code differs at exit.code')
    expect(page).toContain('terminal: `terminal_output_omitted`: output was cut')
    expect(failureHeadline(model.entries[0]!.record)).toBe('the exit code differs at exit.code')
  })
})

describe('control characters in test names and messages', () => {
  test('the divergence file shows the test file and authority paths by the one escaping rule', () => {
    const file = '/repo/test/a\nb.test.ts'
    const model = buildReportModel(
      [
        record('t', 'different', {
          test_file: file,
          location: { file, line: 3, column: 1 },
          authority_path: '/repo/test/__captures__/\u001b[31m"x".json',
        }),
      ],
      ROOT,
    )
    const page = divergenceMarkdown(model.entries[0]!, ROOT)
    expect(page).toContain('- Test: `"test/a\\nb.test.ts":3:1`')
    expect(page).toContain('- Authority: `"test/__captures__/\\e[31m\\"x\\".json"`')
  })

  test('are made visible in the console summary, GitHub commands and Markdown files', () => {
    const name = 'title \u001b]0;PWNED\u0007 bell\u009b31m'
    const model = buildReportModel([record(name, 'error')], ROOT)
    const outputs = [
      consoleSummary(model, 'rea-report', ROOT),
      ...annotationCommands(model, { limit: 10, workspace: ROOT, reportLabel: 'r' }),
      summaryMarkdown(model, { root: ROOT, reportLabel: 'r', links: true }),
      divergenceMarkdown(model.entries[0]!, ROOT),
    ]
    for (const output of outputs) {
      // Only the console's own colours (SGR sequences) may remain.
      expect(rawControlCharacters(output, { allowColors: true })).toEqual([])
      expect(output).toContain('\\e]0;PWNED\\x07')
    }
  })
})
