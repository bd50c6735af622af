import { fileNameForKey } from '../authority/authority-path.js'
import type { ObsoleteFile } from '../authority/obsolete-check.js'
import { DIMENSIONS, type Difference } from '../compare/comparison-schema.js'
import { describeWhere } from '../compare/format-comparison.js'
import { describeRowChange } from '../compare/screen-row-change.js'
import { pathInside } from '../internal/path-inside.js'
import type { AssertionOutcome, AssertionRecord } from './assertion-record.js'

/**
 * The run's report before it is written: one entry per capture assertion, each with its own folder, in a
 * stable order, plus the totals. Reporters for both runners build it from records and only format it.
 */

export const REPORT_FORMAT = 'rea.process-capture.report'
export const REPORT_FORMAT_VERSION = 1

/** File names inside an entry's folder. */
export const ENTRY_FILES = {
  reconstruction: 'reconstruction.capture.json',
  authorityCopy: 'authority.capture.json',
  comparison: 'comparison.json',
  trace: 'trace.json',
  divergence: 'divergence.md',
  divergencePage: 'divergence.html',
  finalScreens: 'final-screens.svg',
} as const

export interface ReportEntry {
  readonly record: AssertionRecord
  /** POSIX path of the entry's folder, relative to the output folder. */
  readonly directory: string
  /** POSIX paths relative to the output folder; null when the entry has no such file. */
  readonly files: {
    readonly reconstruction: string | null
    readonly authority_copy: string | null
    readonly comparison: string | null
    readonly trace: string | null
    readonly divergence: string
    /** The HTML page to look at a failure; null for assertions that held as written. */
    readonly divergence_page: string | null
    /** Both sides' final screens as one SVG picture; for every failure that has a capture to draw. */
    readonly final_screens: string | null
  }
}

export type ReportTotals = Record<AssertionOutcome, number> & {
  readonly assertions: number
  readonly tests: number
  /** Assertions that did not hold (after `.not`). */
  readonly failed: number
}

export interface ReportModel {
  readonly entries: readonly ReportEntry[]
  readonly totals: ReportTotals
  /** Authority files no assertion of the run used, sorted by path (see checkObsoleteAuthorities). */
  readonly obsolete: readonly ObsoleteFile[]
}

/**
 * An entry's folder: the test file's path under the root, then `<test name> <n>-<hash8>` like authority
 * files, under the project's name when the runner has named projects (one file can run in several). It
 * depends only on the test and the assertion's position, so a matcher can print it (for JUnit attachments)
 * before the reporter writes it, and shard merges put every entry where the shard said.
 */
export function entryDirectory(
  root: string,
  record: Pick<AssertionRecord, 'project' | 'test_file' | 'test_name' | 'entry'>,
): string {
  const relative = pathInside(root, record.test_file)
  const testPart = relative ?? `_outside-root/${fileNameForKey(record.test_file)}`
  const projectPart = record.project === '' ? '' : `_project-${fileNameForKey(record.project)}/`
  return `${projectPart}${testPart}/${fileNameForKey(`${record.test_name} ${record.entry}`)}`
}

export function entryFiles(record: AssertionRecord, directory: string): ReportEntry['files'] {
  const file = (name: string): string => `${directory}/${name}`
  return {
    reconstruction: record.reconstruction === null ? null : file(ENTRY_FILES.reconstruction),
    authority_copy: record.authority_evidence === null ? null : file(ENTRY_FILES.authorityCopy),
    comparison: record.comparison === null ? null : file(ENTRY_FILES.comparison),
    trace: record.trace === null ? null : file(ENTRY_FILES.trace),
    divergence: file(ENTRY_FILES.divergence),
    divergence_page: wantsPage(record) ? file(ENTRY_FILES.divergencePage) : null,
    final_screens:
      wantsPage(record) && record.reconstruction !== null ? file(ENTRY_FILES.finalScreens) : null,
  }
}

/**
 * Whether an entry gets divergence.html: every assertion that fails as written (a difference, an unknown,
 * nothing compared; under `.not`, an equivalence or an unknown). It depends on the record alone, not on whether the test
 * expected the failure, so a matcher can name the file before the reporter writes it.
 */
function wantsPage(record: AssertionRecord): boolean {
  switch (record.outcome) {
    case 'error':
    case 'unknown':
      return true
    case 'different':
      return !record.negated
    case 'matched':
      return record.negated
    case 'written':
    case 'updated':
      return false
  }
}

/**
 * Entries sorted by test file, test name and position. A test that ran more than once keeps one record per
 * assertion: from its last retry (the attempt that decided the test), and among that attempt's repeats the
 * first that failed, since one failing repeat fails the test. `testPassed` tells which tests the runner
 * counted as passed: an assertion failure such a test expected (`test.fails`, or caught by the test) is not
 * reported as a failure.
 */
export function buildReportModel(
  records: readonly AssertionRecord[],
  root: string,
  testPassed: (record: AssertionRecord) => boolean = () => false,
  obsolete: readonly ObsoleteFile[] = [],
): ReportModel {
  const byDirectory = new Map<string, ReportEntry>()
  for (const original of records) {
    const record = !original.passed && testPassed(original) ? { ...original, passed: true } : original
    const directory = entryDirectory(root, record)
    const kept = byDirectory.get(directory)?.record
    const replaces =
      kept === undefined ||
      record.attempt.retry > kept.attempt.retry ||
      (record.attempt.retry === kept.attempt.retry && kept.passed)
    if (replaces) {
      byDirectory.set(directory, { record, directory, files: entryFiles(record, directory) })
    }
  }
  const entries = [...byDirectory.values()].sort(
    (a, b) =>
      compareText(a.record.project, b.record.project) ||
      compareText(a.record.test_file, b.record.test_file) ||
      compareText(a.record.test_name, b.record.test_name) ||
      a.record.entry - b.record.entry,
  )
  const counts: Record<AssertionOutcome, number> = {
    matched: 0,
    different: 0,
    unknown: 0,
    written: 0,
    updated: 0,
    error: 0,
  }
  for (const entry of entries) {
    counts[entry.record.outcome]++
  }
  const tests = new Set(
    entries.map((entry) => `${entry.record.project}\0${entry.record.test_file}\0${entry.record.test_name}`),
  )
  return {
    entries,
    totals: {
      ...counts,
      assertions: entries.length,
      tests: tests.size,
      failed: entries.filter((entry) => !entry.record.passed).length,
    },
    obsolete,
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

const FAILURE_RANK: Record<AssertionOutcome, number> = {
  different: 0,
  unknown: 1,
  error: 2,
  matched: 3,
  written: 4,
  updated: 5,
}

/**
 * Failed entries in the order CI annotations should take them: proven differences first, then unknowns, then
 * assertions that compared nothing; the first failure of every test before a test's second one.
 */
export function failuresByPriority(model: ReportModel): readonly ReportEntry[] {
  const failures = model.entries.filter((entry) => !entry.record.passed)
  const seen = new Set<string>()
  const rankWithinTest = new Map<ReportEntry, number>()
  for (const entry of failures) {
    const test = `${entry.record.project}\0${entry.record.test_file}\0${entry.record.test_name}`
    rankWithinTest.set(entry, seen.has(test) ? 1 : 0)
    seen.add(test)
  }
  return [...failures].sort(
    (a, b) =>
      (rankWithinTest.get(a) ?? 0) - (rankWithinTest.get(b) ?? 0) ||
      FAILURE_RANK[a.record.outcome] - FAILURE_RANK[b.record.outcome],
  )
}

/** One line saying why an entry failed: its first divergence with location, or its first reason. */
export function failureHeadline(record: AssertionRecord): string {
  const comparison = record.comparison
  if (record.message !== null) {
    return firstLine(record.message.replace(/^expect\(capture\)\.[\w.]+\(\): /, ''))
  }
  if (record.trace !== null) {
    const violation = record.trace.violations[0]
    const unknown = record.trace.unknown_reasons[0]
    return violation !== undefined
      ? `trace ${record.trace.verdict}: ${violation.detail}`
      : unknown !== undefined
        ? `trace unknown: ${unknown.detail}`
        : `trace ${record.trace.verdict}`
  }
  if (comparison === null) {
    return record.outcome
  }
  if (record.negated && comparison.verdict === 'equivalent') {
    return 'equivalent to its authority, but the test expected a difference'
  }
  // With an earlier dimension unknown there is no first divergence, but a later proven difference still says
  // more than the unknown.
  const divergence =
    comparison.first_divergence ??
    DIMENSIONS.map((name) => comparison.dimensions[name].differences[0]).find(
      (difference) => difference !== undefined,
    )
  const change = record.screen_row_change ?? null
  if (divergence !== undefined) {
    // The row as it reads on both sides says what changed; the offsets stay in the details (divergence.md).
    return change === null
      ? describeDivergence(divergence)
      : divergence.dimension === 'terminal'
        ? `screen ${describeRowChange(change)}`
        : `${describeDivergence(divergence)}; screen ${describeRowChange(change)}`
  }
  const unknown = comparison.unknowns[0]
  return unknown === undefined
    ? comparison.verdict
    : `${unknown.dimension} unknown (${unknown.reason}): ${unknown.detail}`
}

export function describeDivergence(difference: Difference): string {
  return describeWhere(difference)
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? ''
  return line.length > 300 ? `${line.slice(0, 299)}…` : line
}
