import { DIMENSIONS, type Comparison } from '../compare/comparison-schema.js'
import { escapeControlCharacters } from '../internal/escape-controls.js'
import type { PendingCapture, PendingState } from './pending-capture.js'
import { reviewSectionDiff, reviewTextOf, type ReviewDiffLine } from './review-diff.js'
import type { ReviewOutcome } from './review-actions.js'

/** The JSON documents `rea review --json` and the MCP tools return; paths are relative to where the review runs. */
export const PENDING_LIST_FORMAT = 'rea.pending-captures'
export const PENDING_LIST_FORMAT_VERSION = 1

export interface PendingEntry {
  readonly pending_path: string
  readonly authority_path: string
  readonly test: { readonly file: string; readonly name: string; readonly assertion: number } | null
  readonly state: PendingState
  /** Why it cannot be accepted as it is, and what to do; null when ready. */
  readonly problem: string | null
  /** The comparison of the authority with the pending capture; null when they could not be compared. */
  readonly verdict: Comparison['verdict'] | null
  readonly dimensions: Partial<Record<(typeof DIMENSIONS)[number], string>> | null
  readonly differing_dimensions: readonly string[]
  /** Why the two were not compared (the contract changed, the authority cannot be used). */
  readonly comparison_note: string | null
}

/** How paths are written in these documents: relative to where the review runs, with `/`. */
export type RelativePath = (file: string) => string

export function pendingEntry(capture: PendingCapture, relative: RelativePath): PendingEntry {
  const comparison = capture.comparison
  const dimensions =
    comparison === null
      ? null
      : Object.fromEntries(DIMENSIONS.map((name) => [name, comparison.dimensions[name].outcome]))
  return {
    pending_path: relative(capture.pending),
    authority_path: relative(capture.authority),
    test:
      capture.test === null
        ? null
        : { file: relative(capture.test.file), name: capture.test.name, assertion: capture.test.assertion },
    state: capture.state,
    problem: capture.problem,
    verdict: comparison?.verdict ?? null,
    dimensions,
    differing_dimensions:
      comparison === null
        ? []
        : DIMENSIONS.filter((name) => ['different', 'unknown'].includes(comparison.dimensions[name].outcome)),
    comparison_note: capture.comparisonNote,
  }
}

export function pendingListDocument(entries: readonly PendingEntry[]): Record<string, unknown> {
  return { format: PENDING_LIST_FORMAT, format_version: PENDING_LIST_FORMAT_VERSION, pending: entries }
}

/** A path as a shell word, quoted when it needs to be (test names hold spaces). */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`
}

/** The test of an entry for people: `todo.test.mjs › greets 1`, or the authority when the name does not say. */
export function describeTest(entry: PendingEntry): string {
  return entry.test === null
    ? `authority ${entry.authority_path}`
    : `${entry.test.file} › ${entry.test.name} (assertion ${entry.test.assertion})`
}

/** One line per dimension outcome: `terminal different · exit equal · …`. */
export function describeDimensions(entry: PendingEntry): string {
  if (entry.dimensions === null) {
    return entry.comparison_note === null ? 'not compared' : 'not compared (see below)'
  }
  return Object.entries(entry.dimensions)
    .map(([name, outcome]) => `${name} ${outcome.replace('_', ' ')}`)
    .join(' · ')
}

/** `rea review --list` (and a review without a terminal): every entry, then how to act on them. */
export function pendingListText(entries: readonly PendingEntry[], command: string): string {
  if (entries.length === 0) {
    return 'No pending captures.\n'
  }
  const lines = [`${entries.length} pending ${entries.length === 1 ? 'capture' : 'captures'}:`]
  for (const entry of entries) {
    lines.push(
      '',
      `  ${entry.pending_path}`,
      `    test       ${describeTest(entry)}`,
      `    authority  ${entry.authority_path}`,
      `    compared   ${entry.verdict ?? 'no'}: ${describeDimensions(entry)}`,
      ...(entry.problem === null ? [] : indent(`${entry.state.replace('_', ' ')}: ${entry.problem}`, '    ')),
    )
  }
  const first = shellWord(entries[0]?.pending_path ?? '')
  lines.push(
    '',
    `Review them one at a time in a terminal: ${command}`,
    `Show one:     ${command} --show ${first}`,
    `Accept:       ${command} --accept [filters…]   (test names, files or paths; none: all)`,
    `Reject:       ${command} --reject [filters…]`,
  )
  return `${escapeControlCharacters(lines.join('\n'))}\n`
}

/** `rea review --show`: the entry, the comparison's dimensions and the review-section diff. */
export function pendingShowText(capture: PendingCapture, entry: PendingEntry, command: string): string {
  const diff = showDiff(capture)
  const lines = [
    `pending    ${entry.pending_path}`,
    `authority  ${entry.authority_path}`,
    `test       ${describeTest(entry)}`,
    `state      ${entry.state.replace('_', ' ')}`,
    `compared   ${entry.verdict ?? 'no'}: ${describeDimensions(entry)}`,
    ...(entry.comparison_note === null ? [] : indent(entry.comparison_note, '  ')),
    ...(entry.problem === null ? [] : indent(entry.problem, '  ')),
    '',
    diff.length === 0
      ? 'The review sections are the same: what changed is in the Evidence only (times, or what the review does not show).'
      : 'Review section (--- authority, +++ pending):',
    ...diff.map((line) => `${line.kind === '@' ? '' : line.kind}${line.text}`),
    '',
    `Accept: ${command} --accept ${shellWord(entry.pending_path)}`,
    `Reject: ${command} --reject ${shellWord(entry.pending_path)}`,
  ]
  return `${escapeControlCharacters(lines.join('\n'))}\n`
}

export function showDiff(capture: PendingCapture, context = 3): ReviewDiffLine[] {
  const before = reviewTextOf(
    capture.current.state === 'missing' ? null : capture.current.text,
    capture.current.state === 'present' ? capture.current.evidence : null,
  )
  return reviewSectionDiff(before, reviewTextOf(capture.text, capture.evidence), context)
}

/** What `--accept` and `--reject` did, one line each, refusals with their paragraph. */
export function outcomesText(outcomes: readonly ReviewOutcome[]): string {
  if (outcomes.length === 0) {
    return 'No pending captures.\n'
  }
  const lines = outcomes.flatMap((outcome) =>
    outcome.outcome === 'refused'
      ? indent(outcome.message, '  ').map((line, index) => (index === 0 ? line.trimStart() : line))
      : [outcome.message],
  )
  return `${escapeControlCharacters(lines.join('\n'))}\n`
}

function indent(text: string, prefix: string): string[] {
  return text.split('\n').map((line) => `${prefix}${line}`)
}
