import { commandInputs, type CommandInputs } from './command-events.js'
import {
  DEFAULT_COMMAND_TIMEOUT_MS,
  mergeCaseOptions,
  parseCaseOptions,
  type CaseOptions,
} from './case-options.js'
import { readFrontMatterOptions } from './front-matter.js'
import { splitOptionWords } from './info-string.js'
import type { MarkdownIssue } from './markdown-issue.js'
import { parseBlockBody, type BlockProblem, type ParsedCommand } from './parse-block.js'
import { scanDocument, type Fence, type ScannedDocument } from './scan-document.js'
import { DEFAULT_TERMINAL } from '../scenario/schema.js'

/**
 * A Markdown file read into what REA will run: its console blocks, each ignored, invalid (with the issues that
 * keep it from running) or planned command by command, and the files its other fences hand to the commands.
 * Nothing runs here and nothing is read but the text: the same plan serves `rea test`, Vitest and Jest.
 */

export interface CommandPlan {
  readonly parsed: ParsedCommand
  readonly inputs: CommandInputs
}

export interface BlockPlan {
  readonly fence: Fence
  /** `Heading (line 14)`, or `line 14` above the first heading. */
  readonly name: string
  readonly line: number
  readonly options: CaseOptions
  readonly state: 'ignored' | 'invalid' | 'runnable'
  readonly issues: readonly MarkdownIssue[]
  readonly commands: readonly CommandPlan[]
  /** The longest the block may take: its commands' timeouts. */
  readonly timeoutMs: number
}

/** A fence with `file=PATH` in its info string: its content is written to PATH before the next block runs. */
export interface FixtureFence {
  readonly line: number
  readonly path: string
  readonly content: string
  /** The index of the first console block after it. */
  readonly beforeBlock: number
}

export interface DocumentPlan {
  readonly file: string
  readonly text: string
  readonly scanned: ScannedDocument
  /** Problems of the whole file (its front matter): none of its blocks runs. */
  readonly fileIssues: readonly MarkdownIssue[]
  readonly fileOptions: CaseOptions
  readonly blocks: readonly BlockPlan[]
  readonly fixtures: readonly FixtureFence[]
}

/** Whether a fence is a console case: its info string's first word is `console` (flags may follow: `console,ignore`). */
export function consoleWord(info: string): { readonly flags: readonly string[] } | null {
  const [first = ''] = info.split(/\s/, 1)
  const [language, ...flags] = first.split(',')
  return language === 'console' ? { flags } : null
}

export function planDocument(
  file: string,
  text: string,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): DocumentPlan {
  const scanned = scanDocument(text)
  const fileIssues: MarkdownIssue[] = []
  const front = readFrontMatterOptions(scanned.frontMatter)
  let fileOptions: CaseOptions = {}
  if (front.kind === 'error') {
    fileIssues.push({ file, line: front.line, rule: 'front_matter', message: front.message })
  } else if (front.kind === 'options') {
    const parsed = readOptions(front.text, 'front matter')
    fileOptions = parsed.options
    fileIssues.push(...parsed.problems.map((problem) => ({ file, line: front.line, ...problem })))
  }
  const blocks: BlockPlan[] = []
  const fixtures: FixtureFence[] = []
  const fileInvalid = fileIssues.length > 0
  // A bad fixture is the problem of the block that would use it next.
  let fixtureProblems: BlockProblem[] = []
  for (const fence of scanned.fences) {
    const console = consoleWord(fence.info)
    if (console === null) {
      const fixture = fixtureOf(fence, blocks.length, fixtureProblems)
      if (fixture !== null) {
        fixtures.push(fixture)
      }
      continue
    }
    const context = { file, fileOptions, fileInvalid, environment }
    blocks.push(planBlock(context, fence, console.flags, fixtureProblems))
    fixtureProblems = []
  }
  fileIssues.push(...fixtureProblems.map((problem) => ({ file, ...problem })))
  return { file, text, scanned, fileIssues, fileOptions, blocks, fixtures }
}

function readOptions(
  text: string,
  place: 'block' | 'front matter',
): { readonly options: CaseOptions; readonly problems: readonly Omit<BlockProblem, 'line'>[] } {
  const words = splitOptionWords(text)
  if ('error' in words) {
    return { options: {}, problems: [{ rule: 'option_value', message: words.error }] }
  }
  const parsed = parseCaseOptions(words.words, place)
  return {
    options: parsed.options,
    problems: parsed.problems.map((message) => ({
      rule: message.startsWith('unknown option')
        ? 'unknown_option'
        : message.includes('given twice')
          ? 'repeated_option'
          : 'option_value',
      message,
    })),
  }
}

interface PlanContext {
  readonly file: string
  readonly fileOptions: CaseOptions
  readonly fileInvalid: boolean
  readonly environment: Readonly<Record<string, string | undefined>>
}

function planBlock(
  { file, fileOptions, fileInvalid, environment }: PlanContext,
  fence: Fence,
  flags: readonly string[],
  earlier: readonly BlockProblem[],
): BlockPlan {
  const line = fence.open.number
  const name =
    fence.heading === null || fence.heading === '' ? `line ${line}` : `${fence.heading} (line ${line})`
  const problems: BlockProblem[] = [...earlier]
  const own = readOptions(
    [...flags, fence.info.slice(fence.info.split(/\s/, 1)[0]?.length ?? 0)].join(' '),
    'block',
  )
  problems.push(...own.problems.map((problem) => ({ line, ...problem })))
  const options = mergeCaseOptions(fileOptions, own.options)
  const base = { fence, name, line, options }
  if (options.ignore === true) {
    return { ...base, state: 'ignored', issues: [], commands: [], timeoutMs: 0 }
  }
  if (fence.close === null) {
    problems.push({
      line,
      rule: 'unterminated_block',
      message: `the \`\`\`console block opened here is never closed: end it with a line of ${fence.open.text.trim().startsWith('~') ? '~~~' : '```'}`,
    })
  }
  const body = parseBlockBody(fence.content)
  problems.push(...body.problems)
  const settings = {
    terminal: options.terminal ?? 'transcript',
    wait: options.wait ?? 'prompt',
    quietMs: options.quietMs,
    columns: options.columns ?? DEFAULT_TERMINAL.columns,
    rows: options.rows ?? DEFAULT_TERMINAL.rows,
    environment,
  } as const
  const commands = body.commands.map((parsed) => ({
    parsed,
    inputs: commandInputs(parsed, settings, problems),
  }))
  const issues = problems
    .sort((a, b) => a.line - b.line)
    .map((problem) => ({ file, line: problem.line, rule: problem.rule, message: problem.message }))
  const invalid = issues.length > 0 || fileInvalid
  const timeoutMs = commands.length * (options.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS)
  return { ...base, state: invalid ? 'invalid' : 'runnable', issues, commands, timeoutMs }
}

function fixtureOf(fence: Fence, beforeBlock: number, problems: BlockProblem[]): FixtureFence | null {
  const words = splitOptionWords(fence.info.slice(fence.info.split(/\s/, 1)[0]?.length ?? 0))
  const path = 'words' in words ? words.words.find((word) => word.key === 'file')?.value : undefined
  if (path === undefined || path === null) {
    return null
  }
  if (path === '' || path.startsWith('/') || path.split(/[\\/]/).includes('..')) {
    problems.push({
      line: fence.open.number,
      rule: 'fixture',
      message: `file=${JSON.stringify(path)}: a fixture's path is relative to the file's temporary folder and stays inside it (no leading /, no ..)`,
    })
    return null
  }
  const content = fence.content.map((line) => `${line.text}\n`).join('')
  return { line: fence.open.number, path, content, beforeBlock }
}
