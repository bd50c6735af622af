import {
  ASSERTION_RECORD_FORMAT,
  ASSERTION_RECORD_VERSION,
  type AssertionOutcome,
  type AssertionRecord,
} from '../report/assertion-record.js'
import { serializeEvidence } from '../evidence/serialize.js'
import { formatMarkdownIssue } from './markdown-issue.js'
import { commandMessage } from './format-block.js'
import type { BlockResult } from './run-block.js'

/**
 * The reporter's records of a block: one per command (entry 1, 2, … in the block's order), so the report folder,
 * its pages, JUnit attachments and GitHub annotations show Markdown cases as they show capture assertions. A
 * block that did not run leaves one record, outcome `error`, with its issues.
 */
export interface MarkdownRecordContext {
  /** The Markdown file, absolute. */
  readonly file: string
  readonly project: string
  readonly testName: string
  readonly attempt: { readonly retry: number; readonly repeat: number }
  /** Commands whose lines `--update` rewrote: passed, outcome `updated`. */
  readonly updated?: boolean
}

const OUTCOMES = { passed: 'matched', failed: 'different', unknown: 'unknown' } as const

export function markdownRecords(result: BlockResult, context: MarkdownRecordContext): AssertionRecord[] {
  const file = result.block.fence.open
  const base = {
    format: ASSERTION_RECORD_FORMAT,
    format_version: ASSERTION_RECORD_VERSION,
    matcher: 'markdown',
    project: context.project,
    test_file: context.file,
    test_name: context.testName,
    attempt: { retry: context.attempt.retry, repeat: context.attempt.repeat },
    negated: false,
    authority_path: null,
    comparison: null,
    trace: null,
    authority_evidence: null,
  } as const
  if (result.outcome === 'invalid') {
    return [
      {
        ...base,
        entry: 1,
        location: { file: base.test_file, line: result.issues[0]?.line ?? file.number, column: 1 },
        outcome: 'error',
        passed: false,
        message: result.issues.map((issue) => formatMarkdownIssue(issue)).join('\n'),
        reconstruction: null,
      },
    ]
  }
  return result.checks.map((check, index) => {
    const outcome: AssertionOutcome =
      context.updated === true && check.outcome === 'failed' ? 'updated' : OUTCOMES[check.outcome]
    const passed = outcome === 'matched' || outcome === 'updated'
    return {
      ...base,
      entry: index + 1,
      location: { file: base.test_file, line: check.plan.parsed.line.number, column: 1 },
      outcome,
      passed,
      message: passed ? null : commandMessage(check),
      reconstruction: serializeEvidence(check.evidence),
    }
  })
}
