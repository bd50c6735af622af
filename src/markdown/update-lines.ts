import { sameStatus, type CommandCheck, type SectionCheck } from './check-command.js'
import { isInput } from './expected-line.js'
import type { ExpectedLine, ExpectedStatus } from './parse-block.js'
import { notationOf } from './render-line.js'
import type { ScannedDocument, SourceLine } from './scan-document.js'

/**
 * What `--update` (`-u`) changes for one command: the expected lines that differ are replaced by what the
 * terminal showed, written in the notation; lines that still match are kept byte for byte, wildcards and tokens
 * included; the `?` line follows the exit status. Lines holding input are never rewritten: a command whose input
 * lines differ, or whose run did not go as written, is left for a person to edit.
 */

export interface Splice {
  /** Offsets in the file's text; `start === end` inserts. */
  readonly start: number
  readonly end: number
  readonly text: string
}

export interface CommandUpdate {
  readonly splices: readonly Splice[]
  /** Why nothing is written for this command; null when it can be updated. */
  readonly refused: string | null
  /** Lines of the block that are replaced or removed. */
  readonly replacedLines: readonly number[]
  /** Of those, the ones that held a wildcard or a token, now written out. */
  readonly lostWildcards: readonly number[]
}

export function planUpdate(check: CommandCheck, document: ScannedDocument, indent: string): CommandUpdate {
  const none = (refused: string): CommandUpdate => ({
    splices: [],
    refused,
    replacedLines: [],
    lostWildcards: [],
  })
  if (check.flaws.length > 0 || check.unknowns.length > 0 || check.outcome === 'unknown') {
    return none('the run did not go as the block says, or was not fully observed; fix the block by hand')
  }
  const splices: Splice[] = []
  const replacedLines: number[] = []
  const lostWildcards: number[] = []
  const eol = document.lineEnd
  const parsed = check.plan.parsed
  let afterCommand = parsed.statusLine?.line ?? parsed.lastCommandLine
  if (check.actualStatus !== null && !sameStatus(check.expectedStatus, check.actualStatus)) {
    const splice = statusSplice(
      check.actualStatus,
      parsed.statusLine?.line ?? null,
      parsed.lastCommandLine,
      document,
      indent,
    )
    splices.push(splice)
    if (splice.text === '') {
      afterCommand = parsed.lastCommandLine
    }
  }
  for (const [index, section] of check.sections.entries()) {
    const first = section.expected[0]
    const anchor =
      index === 0 ? afterCommand : first === undefined ? null : previousLine(document, first.line)
    const result = sectionSplices(section, { document, indent, eol, anchor })
    if (typeof result === 'string') {
      return none(result)
    }
    splices.push(...result.splices)
    replacedLines.push(...result.replaced)
    lostWildcards.push(...result.lost)
  }
  return { splices, refused: null, replacedLines, lostWildcards }
}

interface SectionContext {
  readonly document: ScannedDocument
  readonly indent: string
  readonly eol: string
  /**
   * Where text goes when no expected line of the section comes before it: after the command (and its `?` line),
   * or after the input line before a screen; null for an empty screen, which is not rewritten.
   */
  readonly anchor: SourceLine | null
}

function sectionSplices(
  section: SectionCheck,
  context: SectionContext,
): { splices: Splice[]; replaced: number[]; lost: number[] } | string {
  const splices: Splice[] = []
  const replaced: number[] = []
  const lost: number[] = []
  const actual = section.actual ?? []
  let anchor = context.anchor
  let deleted: ExpectedLine[] = []
  let inserted: string[] = []
  const flush = (): string | null => {
    if (deleted.length === 0 && inserted.length === 0) {
      return null
    }
    const input = deleted.find((line) => line.kind === 'line' && line.segments.some(isInput))
    if (input !== undefined) {
      return `line ${input.line.number} holds input and no longer matches; edit it by hand`
    }
    if (anchor === null && deleted.length === 0) {
      return `${section.label} is empty in the block; write it by hand`
    }
    splices.push(hunkSplice(deleted, inserted, anchor, context))
    for (const line of deleted) {
      replaced.push(line.line.number)
      if (
        line.kind === 'lines' ||
        line.segments.some((segment) => segment.kind === 'any' || segment.kind === 'token')
      ) {
        lost.push(line.line.number)
      }
    }
    anchor = deleted.at(-1)?.line ?? anchor
    deleted = []
    inserted = []
    return null
  }
  for (const step of section.alignment?.steps ?? []) {
    if (step.op === 'delete') {
      deleted.push(section.expected[step.expected] as ExpectedLine)
    } else if (step.op === 'insert') {
      inserted.push(notationOf(actual[step.actual] ?? ''))
    } else {
      const problem = flush()
      if (problem !== null) {
        return problem
      }
      if (step.op !== 'absorb') {
        anchor = (section.expected[step.expected] as ExpectedLine).line
      }
    }
  }
  const problem = flush()
  return problem ?? { splices, replaced, lost }
}

function hunkSplice(
  deleted: readonly ExpectedLine[],
  inserted: readonly string[],
  anchor: SourceLine | null,
  { document, indent, eol }: SectionContext,
): Splice {
  const text = inserted.map((line) => (line === '' ? '' : `${indent}${line}`))
  const first = deleted[0]
  const last = deleted.at(-1)
  if (first === undefined || last === undefined) {
    const at = anchor?.end ?? 0
    return { start: at, end: at, text: text.map((line) => `${eol}${line}`).join('') }
  }
  if (text.length === 0) {
    // Whole lines go, with their line ends.
    return { start: first.line.start, end: nextLineStart(document, last.line), text: '' }
  }
  return { start: first.line.start, end: last.line.end, text: text.join(eol) }
}

function statusSplice(
  status: ExpectedStatus,
  statusLine: SourceLine | null,
  lastCommandLine: SourceLine,
  document: ScannedDocument,
  indent: string,
): Splice {
  const written = `${indent}? ${status.kind === 'code' ? status.code : status.signal}`
  if (statusLine !== null) {
    return status.kind === 'code' && status.code === 0
      ? { start: statusLine.start, end: nextLineStart(document, statusLine), text: '' }
      : { start: statusLine.start, end: statusLine.end, text: written }
  }
  return { start: lastCommandLine.end, end: lastCommandLine.end, text: `${document.lineEnd}${written}` }
}

function nextLineStart(document: ScannedDocument, line: SourceLine): number {
  return document.lines[line.number]?.start ?? line.end
}

function previousLine(document: ScannedDocument, line: SourceLine): SourceLine {
  return document.lines[line.number - 2] ?? line
}

/** The file's text with every splice applied; splices must not overlap (each command touches its own lines). */
export function applySplices(text: string, splices: readonly Splice[]): string {
  const ordered = splices
    .map((splice, order) => ({ splice, order }))
    .sort((a, b) => a.splice.start - b.splice.start || a.order - b.order)
  let result = ''
  let at = 0
  for (const { splice } of ordered) {
    if (splice.start < at) {
      throw new Error(`overlapping updates at offset ${splice.start}`)
    }
    result += text.slice(at, splice.start) + splice.text
    at = splice.end
  }
  return result + text.slice(at)
}
