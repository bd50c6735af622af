import { describeObsolete } from '../authority/messages.js'
import type { ObsoleteFile } from '../authority/obsolete-check.js'
import { DIMENSIONS, type Comparison, type Difference } from '../compare/comparison-schema.js'
import { describeDifference } from '../compare/format-comparison.js'
import { formatTraceResult } from '../compare/trace/index.js'
import { escapeControlCharacters, showName } from '../internal/escape-controls.js'
import { relativePosix } from '../internal/relative-posix.js'
import type { AssertionRecord } from './assertion-record.js'
import {
  describeDivergence,
  failureHeadline,
  failuresByPriority,
  type ReportEntry,
  type ReportModel,
} from './report-model.js'

/** divergence.md and summary.md: what a reviewer opens first in a downloaded report. */

const OUTCOME_WORDS: Record<AssertionRecord['outcome'], string> = {
  matched: 'matched',
  different: 'different',
  unknown: 'unknown',
  written: 'authority written',
  updated: 'authority updated',
  error: 'not compared',
}

/** Markdown inline code that survives backticks in the text. */
function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`'
  return `${fence}${text.replaceAll('\n', ' ')}${fence}`
}

/** A fenced block whose fence is longer than any backtick run inside. */
function block(text: string, language = ''): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}${language}\n${text.replace(/\n$/, '')}\n${fence}`
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ')
}

function assertionLabel(record: AssertionRecord): string {
  if (record.matcher === 'markdown') {
    return `console block, command ${record.entry}`
  }
  return `expect(capture).${record.negated ? 'not.' : ''}${record.matcher}()`
}

function locationLabel(record: AssertionRecord, root: string): string {
  // Paths by the one escaping rule: a newline in a file name would otherwise read as a space in a code span.
  const file = showName(relativePosix(root, record.location?.file ?? record.test_file))
  return record.location === null ? file : `${file}:${record.location.line}:${record.location.column}`
}

/** The per-assertion page: verdict, dimensions, first divergence, terminal diff, unknowns. */
export function divergenceMarkdown(entry: ReportEntry, root: string): string {
  const record = entry.record
  const lines = [
    `# ${record.test_name}: ${OUTCOME_WORDS[record.outcome]}${record.passed ? '' : ' (failed)'}`,
    '',
    `- Test: ${code(locationLabel(record, root))}, ${code(assertionLabel(record))}`,
  ]
  if (record.authority_path !== null) {
    lines.push(`- Authority: ${code(showName(relativePosix(root, record.authority_path)))}`)
  } else if (record.authority_evidence !== null) {
    lines.push(
      `- Authority: an Evidence object in the test (copy: [authority.capture.json](authority.capture.json))`,
    )
  }
  if (entry.files.reconstruction !== null) {
    lines.push('- Reconstruction: [reconstruction.capture.json](reconstruction.capture.json)')
  }
  if (entry.files.comparison !== null) {
    lines.push('- Comparison document: [comparison.json](comparison.json)')
  }
  if (entry.files.divergence_page !== null) {
    lines.push(
      '- To look at it: [divergence.html](divergence.html) (screens side by side, replay; opens offline)',
    )
  }
  if (entry.files.final_screens !== null) {
    lines.push('', '![The final screens of both sides](final-screens.svg)')
  }
  if (record.message !== null) {
    const heading = record.matcher === 'markdown' ? '## The console block' : '## Why nothing was compared'
    lines.push('', heading, '', block(record.message))
  }
  if (record.comparison !== null) {
    lines.push('', ...comparisonSection(record.comparison))
  }
  if (record.trace !== null) {
    lines.push(
      '',
      `## Trace: ${record.trace.verdict}`,
      '',
      'Full result: [trace.json](trace.json)',
      '',
      block(formatTraceResult(record.trace).join('\n')),
    )
  }
  // Test names, messages and terminal text end up in a file people `cat` and in CI step summaries.
  return escapeControlCharacters(`${lines.join('\n')}\n`)
}

const MAX_LISTED_DIFFERENCES = 50

function isSameDifference(a: Difference, b: Difference | null): boolean {
  return b !== null && JSON.stringify(a) === JSON.stringify(b)
}

function comparisonSection(comparison: Comparison): string[] {
  const lines = [
    `## Verdict: ${comparison.verdict}${comparison.verdict_basis === 'trace' ? ' (decided by the trace specification)' : ''}`,
    '',
    '| Dimension | Outcome | Differences | Unknowns |',
    '| --- | --- | ---: | ---: |',
  ]
  for (const name of DIMENSIONS) {
    const result = comparison.dimensions[name]
    lines.push(
      `| ${name} | ${result.outcome} | ${result.differences.length + result.differences_omitted} | ${result.unknowns.length} |`,
    )
  }
  lines.push('', '## First divergence', '')
  if (comparison.first_divergence === null) {
    lines.push(
      comparison.verdict === 'equivalent'
        ? 'None: every dimension was proven equal.'
        : 'None located: an earlier dimension could not be decided, so no later difference is called first.',
    )
  } else {
    const first = comparison.first_divergence
    lines.push(
      `- ${describeDivergence(first)}`,
      `- Field: ${code(first.field)}`,
      '',
      'Authority:',
      '',
      block(JSON.stringify(first.authority, null, 2), 'json'),
      '',
      'Reconstruction:',
      '',
      block(JSON.stringify(first.reconstruction, null, 2), 'json'),
    )
  }
  const others = DIMENSIONS.flatMap((name) => comparison.dimensions[name].differences).filter(
    (difference) => !isSameDifference(difference, comparison.first_divergence),
  )
  const omitted =
    DIMENSIONS.reduce((sum, name) => sum + comparison.dimensions[name].differences_omitted, 0) +
    Math.max(0, others.length - MAX_LISTED_DIFFERENCES)
  if (others.length > 0) {
    lines.push(
      '',
      comparison.first_divergence === null ? '## Differences' : '## Other differences',
      '',
      ...others.slice(0, MAX_LISTED_DIFFERENCES).map((difference) => `- ${describeDifference(difference)}`),
      ...(omitted > 0
        ? ['', `${omitted} more difference${omitted === 1 ? '' : 's'}: see comparison.json.`]
        : []),
    )
  }
  if (comparison.terminal_diff !== null) {
    lines.push(
      '',
      '## Terminal diff (normalized text)',
      '',
      block(comparison.terminal_diff.unified, 'diff'),
      ...(comparison.terminal_diff.truncated
        ? ['', 'The diff was cut to its size cap; comparison.json has every difference.']
        : []),
    )
  }
  if (comparison.unknowns.length > 0) {
    lines.push(
      '',
      '## Unknowns (never counted as equal)',
      '',
      ...comparison.unknowns.map(
        (unknown) => `- ${unknown.dimension}: ${code(unknown.reason)}: ${unknown.detail}`,
      ),
    )
  }
  return lines
}

export interface SummaryMarkdownOptions {
  readonly root: string
  /** Where the report folder is, as shown to the reader (e.g. `rea-report`). */
  readonly reportLabel: string
  /** Link entries to their files (true in summary.md; false in a CI step summary, where links cannot resolve). */
  readonly links: boolean
  /** Stop adding rows past this many bytes, saying how many were left out. */
  readonly maxBytes?: number
  /** How the user removes obsolete authorities, e.g. `vitest -u`. Default `-u`. */
  readonly updateCommand?: string
}

export function totalsLine(model: ReportModel): string {
  const t = model.totals
  return (
    `${t.assertions} capture assertion${t.assertions === 1 ? '' : 's'} in ${t.tests} test${t.tests === 1 ? '' : 's'}: ` +
    `${t.matched} matched, ${t.different} different, ${t.unknown} unknown, ${t.error} not compared, ` +
    `${t.written} authorit${t.written === 1 ? 'y' : 'ies'} written, ${t.updated} updated; ${t.failed} failed`
  )
}

/**
 * One line about the run's obsolete authority files, e.g. `2 obsolete authority files: no assertion of this run
 * used them; \`vitest -u\` removes them`; empty when there are none.
 */
export function obsoleteLine(files: readonly ObsoleteFile[], updateCommand: string): string {
  const count = files.length
  if (count === 0) {
    return ''
  }
  const subject = `${count} obsolete authority ${count === 1 ? 'file' : 'files'}`
  const removed = files.filter((file) => file.removed).length
  if (removed === count) {
    return `${subject} removed (no assertion of this run used ${count === 1 ? 'it' : 'them'})`
  }
  return (
    `${subject}: no assertion of this run used ${count === 1 ? 'it' : 'them'}; ` +
    (removed > 0
      ? `${removed} removed, the others could not be`
      : `\`${updateCommand}\` removes ${count === 1 ? 'it' : 'them'}`)
  )
}

function obsoleteRows(model: ReportModel, options: SummaryMarkdownOptions): string[] {
  if (model.obsolete.length === 0) {
    return []
  }
  return [
    '',
    '### Obsolete authority files',
    '',
    `${obsoleteLine(model.obsolete, options.updateCommand ?? '-u')}.`,
    '',
    '| File | Removed |',
    '| --- | --- |',
    ...model.obsolete.map(
      (file) => `| ${cell(code(describeObsolete(file, options.root)))} | ${file.removed ? 'yes' : 'no'} |`,
    ),
  ]
}

/** The run's overview: totals, then every failure with its first divergence, then the other entries. */
export function summaryMarkdown(model: ReportModel, options: SummaryMarkdownOptions): string {
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY
  const head = [
    '## REA process capture',
    '',
    totalsLine(model),
    '',
    options.links
      ? 'Each test links to its divergence.md, and each failure to its divergence.html page; index.json lists every file of the report.'
      : `Evidence, comparison documents and divergence files are in the report folder ${code(options.reportLabel)}.`,
  ]
  const failures = failuresByPriority(model)
  const rows: string[] = []
  const link = (entry: ReportEntry, text: string): string =>
    options.links ? `[${cell(text)}](${encodeURI(entry.files.divergence)})` : cell(text)
  const pageLink = (entry: ReportEntry): string =>
    options.links && entry.files.divergence_page !== null
      ? ` ([page](${encodeURI(entry.files.divergence_page)}))`
      : ''
  if (failures.length > 0) {
    rows.push('', '### Failed', '', '| Test | Outcome | First divergence |', '| --- | --- | --- |')
    for (const entry of failures) {
      rows.push(
        `| ${link(entry, `${locationLabel(entry.record, options.root)} ${entry.record.test_name}`)}${pageLink(entry)} | ${OUTCOME_WORDS[entry.record.outcome]} | ${cell(failureHeadline(entry.record))} |`,
      )
    }
  }
  rows.push(...obsoleteRows(model, options))
  const others = model.entries.filter((entry) => entry.record.passed)
  if (others.length > 0) {
    rows.push('', '### Held', '', '| Test | Outcome |', '| --- | --- |')
    for (const entry of others) {
      rows.push(
        `| ${link(entry, `${locationLabel(entry.record, options.root)} ${entry.record.test_name}`)} | ${OUTCOME_WORDS[entry.record.outcome]} |`,
      )
    }
  }
  // Escaped row by row, so the size limit counts what is written.
  let text = escapeControlCharacters(`${head.join('\n')}\n`)
  // A running count: measuring the whole text per row made a suite of thousands of assertions take minutes.
  let used = Buffer.byteLength(text)
  for (const [index, row] of rows.entries()) {
    const next = escapeControlCharacters(`${row}\n`)
    const size = Buffer.byteLength(next)
    if (used + size + 200 > maxBytes) {
      const left = rows
        .slice(index)
        .filter(
          (rest) =>
            rest.startsWith('| ') &&
            !rest.startsWith('| ---') &&
            !rest.startsWith('| Test |') &&
            !rest.startsWith('| File |'),
        ).length
      text += escapeControlCharacters(
        `\n… ${left} more row${left === 1 ? '' : 's'} left out to stay under the size limit; ${code(`${options.reportLabel}/index.json`)} lists them all.\n`,
      )
      break
    }
    text += next
    used += size
  }
  return text
}
