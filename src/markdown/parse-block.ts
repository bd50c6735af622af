import { SCENARIO_SIGNALS } from '../scenario/schema.js'
import { parseExpectedLine, type Segment } from './expected-line.js'
import type { MarkdownRule } from './markdown-issue.js'
import type { SourceLine } from './scan-document.js'

/**
 * A console block's content read into commands: `$ command` (with `> ` continuation lines), an optional `? status`
 * right after them, then the expected lines up to the next `$`. Trailing blank lines of each command are not
 * expected text, so commands can be set apart by blank lines.
 */

/** What `? <status>` may say: an exit code, or the signal that ended the command. */
export type ExpectedStatus =
  { readonly kind: 'code'; readonly code: number } | { readonly kind: 'signal'; readonly signal: string }

export type ExpectedLine =
  | { readonly kind: 'lines'; readonly line: SourceLine }
  | { readonly kind: 'line'; readonly line: SourceLine; readonly segments: readonly Segment[] }

export interface ParsedCommand {
  /** The `$` line. */
  readonly line: SourceLine
  /** Passed to `sh -c` as written: the `$` line and its continuation lines, joined by newlines. */
  readonly command: string
  /** The command's last line (`$` or `>`), after which a `?` line or inserted text goes. */
  readonly lastCommandLine: SourceLine
  readonly statusLine: { readonly line: SourceLine; readonly status: ExpectedStatus } | null
  readonly expected: readonly ExpectedLine[]
}

export interface BlockProblem {
  readonly line: number
  readonly rule: MarkdownRule
  readonly message: string
}

export function parseBlockBody(content: readonly SourceLine[]): {
  readonly commands: readonly ParsedCommand[]
  readonly problems: readonly BlockProblem[]
} {
  const problems: BlockProblem[] = []
  const commands: ParsedCommand[] = []
  let index = 0
  while (index < content.length && (content[index] as SourceLine).text.trim() === '') {
    index++
  }
  while (index < content.length) {
    const line = content[index] as SourceLine
    if (!isCommandLine(line.text)) {
      problems.push({
        line: line.number,
        rule: 'expected_command',
        message: `expected \`$ command\` here, got ${JSON.stringify(line.text)}: a console block starts with the command it runs`,
      })
      return { commands, problems }
    }
    const parsed = readCommand(content, index, problems)
    commands.push(parsed.command)
    index = parsed.next
  }
  if (commands.length === 0 && problems.length === 0) {
    problems.push({
      line: (content[0]?.number ?? 1) - 1,
      rule: 'expected_command',
      message: 'the console block is empty: write `$ command` and the text it shows',
    })
  }
  return { commands, problems }
}

function isCommandLine(text: string): boolean {
  return text === '$' || text.startsWith('$ ')
}

function readCommand(
  content: readonly SourceLine[],
  start: number,
  problems: BlockProblem[],
): { readonly command: ParsedCommand; readonly next: number } {
  const first = content[start] as SourceLine
  const parts = [first.text.slice(2)]
  let last = first
  let index = start + 1
  while (index < content.length && /^>( |$)/.test((content[index] as SourceLine).text)) {
    last = content[index] as SourceLine
    parts.push(last.text.slice(2))
    index++
  }
  const command = parts.join('\n')
  if (command.trim() === '') {
    problems.push({ line: first.number, rule: 'empty_command', message: '`$` with no command after it' })
  }
  let statusLine: ParsedCommand['statusLine'] = null
  const statusMatch = /^\? (\S+)\s*$/.exec(content[index]?.text ?? '')
  if (statusMatch !== null) {
    const line = content[index] as SourceLine
    const status = parseStatus(statusMatch[1] as string)
    if (status === null) {
      problems.push({
        line: line.number,
        rule: 'status',
        message: `\`? ${statusMatch[1] ?? ''}\` is not an exit status: write a code from 0 to 255 or the signal that ends the command (SIGINT, SIGTERM…); if the program prints this line, write it as \`\\? ${statusMatch[1] ?? ''}\``,
      })
    } else {
      statusLine = { line, status }
    }
    index++
  }
  const expected: ExpectedLine[] = []
  while (index < content.length && !isCommandLine((content[index] as SourceLine).text)) {
    const line = content[index] as SourceLine
    const parsed = parseExpectedLine(line.text)
    if (parsed.kind === 'error') {
      problems.push({ line: line.number, rule: parsed.rule, message: parsed.message })
    } else {
      expected.push(
        parsed.kind === 'lines' ? { kind: 'lines', line } : { kind: 'line', line, segments: parsed.segments },
      )
    }
    index++
  }
  while (expected.length > 0 && isBlank(expected.at(-1) as ExpectedLine)) {
    expected.pop()
  }
  return { command: { line: first, command, lastCommandLine: last, statusLine, expected }, next: index }
}

function isBlank(line: ExpectedLine): boolean {
  return (
    line.kind === 'line' &&
    line.segments.every((segment) => segment.kind === 'text' && segment.text.trim() === '')
  )
}

function parseStatus(word: string): ExpectedStatus | null {
  if (/^\d{1,3}$/.test(word) && Number(word) <= 255) {
    return { kind: 'code', code: Number(word) }
  }
  return (SCENARIO_SIGNALS as readonly string[]).includes(word) ? { kind: 'signal', signal: word } : null
}
