import { escapeControlCharacters } from '../internal/escape-controls.js'
import { sameStatus, type CommandCheck } from './check-command.js'
import { describeStatus, formatCommandCheck } from './format-check.js'
import { formatMarkdownIssue } from './markdown-issue.js'
import { notationOf } from './render-line.js'
import type { BlockResult } from './run-block.js'

/**
 * A block's result in words, as every front door shows it: `file:line › name`, then for each command that did
 * not pass its headline and diff, or the issues that kept the block from running.
 */

/** One line saying why a command did not pass: the first thing a person must know. */
export function commandHeadline(check: CommandCheck): string {
  const first = check.flaws[0]
  if (first !== undefined) {
    return first
  }
  for (const section of check.sections) {
    if (section.actual === null) {
      return `${section.label} was not observed`
    }
    const steps = section.alignment?.steps ?? []
    const change = steps.findIndex((step) => step.op === 'delete' || step.op === 'insert')
    const step = steps[change]
    if (step?.op === 'delete') {
      const line = section.expected[step.expected]
      const next = steps[change + 1]
      const shown =
        next?.op === 'insert'
          ? `, the terminal shows ${JSON.stringify(notationOf(section.actual[next.actual] ?? ''))}`
          : ', which the terminal does not show'
      return `line ${line?.line.number ?? '?'} differs: the block has ${JSON.stringify(line?.line.text ?? '')}${shown}`
    }
    if (step?.op === 'insert') {
      return `the terminal shows a line the block does not have: ${JSON.stringify(notationOf(section.actual[step.actual] ?? ''))}`
    }
  }
  if (!sameStatus(check.expectedStatus, check.actualStatus)) {
    return `the block expects ${describeStatus(check.expectedStatus)}, the command gave ${describeStatus(check.actualStatus)}`
  }
  return check.unknowns[0] === undefined ? 'passed' : `not fully observed: ${check.unknowns[0]}`
}

/** The headline, then what `formatCommandCheck` shows: one command's failure, as a record's message. */
export function commandMessage(check: CommandCheck): string {
  return escapeControlCharacters([commandHeadline(check), ...formatCommandCheck(check)].join('\n'))
}

export interface BlockTextOptions {
  /** How the file is named in messages (relative to the root). */
  readonly shownFile: string
  /** The divergence page of command `n` (0-based), when one was written. */
  readonly page?: (command: number) => string | null
  /** Added when a command could be rewritten: `rea test -u docs/x.md`, `vitest -u`. */
  readonly updateCommand?: string
}

/** The lines a failing, unknown or invalid block prints (indented under its `file:line › name` title). */
export function blockDetails(result: BlockResult, options: BlockTextOptions): string[] {
  if (result.outcome === 'invalid') {
    return result.issues.map((issue) =>
      escapeControlCharacters(formatMarkdownIssue(issue, options.shownFile)),
    )
  }
  const lines: string[] = []
  result.checks.forEach((check, index) => {
    if (check.outcome === 'passed') {
      return
    }
    lines.push(...formatCommandCheck(check))
    const page = options.page?.(index)
    if (page != null) {
      lines.push(`divergence page: ${page}`)
    }
  })
  if (options.updateCommand !== undefined && result.outcome === 'failed') {
    lines.push(`\`${options.updateCommand}\` rewrites the lines that differ`)
  }
  return lines
}

export function blockTitle(result: BlockResult, shownFile: string): string {
  return escapeControlCharacters(`${shownFile}:${result.block.line} › ${result.block.name}`)
}
