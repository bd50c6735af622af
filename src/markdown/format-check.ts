import { escapeControlCharacters } from '../internal/escape-controls.js'
import { sameStatus, type CommandCheck, type SectionCheck } from './check-command.js'
import { commandHints } from './hints.js'
import type { ExpectedStatus } from './parse-block.js'
import { notationOf } from './render-line.js'
import type { Step } from './match-lines.js'

/**
 * A command's result for people: its `$` line, each part that differs as a diff in the block's own notation
 * (expected lines with their line numbers, `-` what the block says, `+` what the terminal showed, written so it
 * can be pasted back), the exit status, what kept the run from going as written, what REA could not observe,
 * and hints. Terminal-safe: every control character the program wrote is shown as an escape.
 */

/** Diffs shorter than this are shown whole; longer ones as hunks with a few lines of context. */
const WHOLE_DIFF_LINES = 40
const CONTEXT_LINES = 2

export function describeStatus(status: ExpectedStatus | null): string {
  return status === null
    ? 'no exit (REA ended the command)'
    : status.kind === 'code'
      ? `exit ${status.code}`
      : `ended by ${status.signal}`
}

export function formatCommandCheck(check: CommandCheck): string[] {
  const lines = [
    `$ ${check.plan.parsed.command.split('\n').join('\n> ')}   (line ${check.plan.parsed.line.number})`,
  ]
  for (const section of check.sections) {
    lines.push(...formatSection(section))
  }
  if (
    check.flaws.length === 0 &&
    check.actualStatus !== null &&
    !sameStatus(check.expectedStatus, check.actualStatus)
  ) {
    const where = check.plan.parsed.statusLine?.line.number
    lines.push(
      `exit status differs: the block expects ${describeStatus(check.expectedStatus)}${where === undefined ? ' (no `?` line)' : ` (line ${where})`}, the command gave ${describeStatus(check.actualStatus)}`,
    )
  }
  lines.push(...check.flaws.map((flaw) => `✗ ${flaw}`))
  lines.push(...check.unknowns.map((unknown) => `? not fully observed: ${unknown}`))
  lines.push(...commandHints(check).map((hint) => `hint: ${hint}`))
  return lines.map(escapeControlCharacters)
}

function formatSection(section: SectionCheck): string[] {
  if (section.actual === null) {
    return [
      `${section.label}: not observed (its frame was not rendered, or the input before it was never sent)`,
    ]
  }
  const alignment = section.alignment
  if (alignment === null || alignment.equal) {
    return []
  }
  const actual = section.actual
  const rows = diffRows(section, alignment.steps, actual)
  const width = String(Math.max(0, ...section.expected.map((line) => line.line.number))).length
  const shown = rows.length <= WHOLE_DIFF_LINES ? rows.map((_, index) => index) : hunkIndexes(rows)
  const text: string[] = [`${section.label} differs (- the block, + the terminal):`]
  let previous = -1
  for (const index of shown) {
    if (previous !== -1 && index !== previous + 1) {
      text.push(`  ${' '.repeat(width)}  …`)
    }
    const row = rows[index] as DiffRow
    text.push(
      `  ${row.line === null ? ' '.repeat(width) : String(row.line).padStart(width)} ${row.sign} ${row.text}`,
    )
    previous = index
  }
  return text
}

interface DiffRow {
  readonly sign: ' ' | '-' | '+'
  readonly line: number | null
  readonly text: string
}

function diffRows(section: SectionCheck, steps: readonly Step[], actual: readonly string[]): DiffRow[] {
  const rows: DiffRow[] = []
  for (const step of steps) {
    switch (step.op) {
      case 'match':
      case 'lines':
      case 'delete': {
        const line = section.expected[step.expected]
        if (line !== undefined) {
          rows.push({ sign: step.op === 'delete' ? '-' : ' ', line: line.line.number, text: line.line.text })
        }
        break
      }
      case 'insert':
        rows.push({ sign: '+', line: null, text: notationOf(actual[step.actual] ?? '') })
        break
      case 'absorb':
        break
    }
  }
  return rows
}

function hunkIndexes(rows: readonly DiffRow[]): number[] {
  const keep = new Set<number>()
  rows.forEach((row, index) => {
    if (row.sign !== ' ') {
      for (let near = index - CONTEXT_LINES; near <= index + CONTEXT_LINES; near++) {
        if (near >= 0 && near < rows.length) {
          keep.add(near)
        }
      }
    }
  })
  return [...keep].sort((a, b) => a - b)
}
