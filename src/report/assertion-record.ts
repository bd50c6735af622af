import { fileURLToPath } from 'node:url'
import * as z from 'zod'
import type { CaptureMatchResult } from '../authority/match-capture.js'
import type { TraceMatchResult } from '../authority/match-trace.js'
import { comparisonSchema, type Comparison } from '../compare/comparison-schema.js'
import { traceResultSchema, type TraceResult } from '../compare/trace/index.js'
import { serializeEvidence } from '../evidence/serialize.js'
import type { Evidence } from '../evidence/schema.js'

/**
 * What one `toMatchCapture` / `toSatisfyTrace` assertion, or one command of a Markdown console block
 * (`markdown`), leaves for the reporter. The matcher builds it while the test runs; under Vitest it travels as a
 * test artifact (so it survives blob reports and shard merges), under Jest as a side file the reporter collects;
 * `rea test` hands its records to the same writer. Reporters only format it.
 */

export const ASSERTION_RECORD_FORMAT = 'rea.process-capture.assertion'
export const ASSERTION_RECORD_VERSION = 1
/** The Vitest artifact type (the `package:name` convention of TestArtifactRegistry). */
export const ASSERTION_ARTIFACT_TYPE = 'rea:assertion'

/**
 * - `matched` / `different` / `unknown`: the comparison's verdict (for a trace, satisfied / violated / unknown).
 * - `written` / `updated`: an authority file was recorded or re-recorded; the assertion passed.
 * - `error`: nothing was compared (missing authority in CI, an unreadable authority, a value that is not Evidence).
 */
export const ASSERTION_OUTCOMES = ['matched', 'different', 'unknown', 'written', 'updated', 'error'] as const
export type AssertionOutcome = (typeof ASSERTION_OUTCOMES)[number]

const locationSchema = z.strictObject({ file: z.string(), line: z.int(), column: z.int() })
export type SourceLocation = z.output<typeof locationSchema>

export const assertionRecordSchema = z.strictObject({
  format: z.literal(ASSERTION_RECORD_FORMAT),
  format_version: z.literal(ASSERTION_RECORD_VERSION),
  matcher: z
    .enum(['toMatchCapture', 'toSatisfyTrace', 'markdown'])
    .describe('markdown: a command of a console block in a Markdown file, checked against the block’s text.'),
  project: z.string().describe('The runner project’s name (Vitest projects); empty when unnamed.'),
  test_file: z.string().describe('Absolute path of the test file.'),
  test_name: z.string().describe('Full test name as the runner reports it.'),
  attempt: z
    .strictObject({ retry: z.int().min(0), repeat: z.int().min(0) })
    .describe('Which run of the test made the record (retries and repeats; always 0 under Jest).'),
  /** 1-based among the test's capture assertions; names the entry's folder. */
  entry: z.int().min(1),
  location: locationSchema.nullable(),
  negated: z.boolean(),
  outcome: z.enum(ASSERTION_OUTCOMES),
  /** The assertion held (after `.not`). */
  passed: z.boolean(),
  /**
   * Why nothing was compared (outcome `error`) or why a write failed; for `markdown`, the block's failure (its
   * first line a headline, then the diff in the block's notation). Plain text.
   */
  message: z.string().nullable(),
  authority_path: z.string().nullable().describe('Absolute; null when the authority was an Evidence object.'),
  comparison: comparisonSchema.nullable(),
  trace: traceResultSchema.nullable(),
  /** The received capture, serialized as an Evidence file; null when the value was not Evidence. */
  reconstruction: z.string().nullable(),
  /** The authority given as an object in the test, serialized; null for file authorities. */
  authority_evidence: z.string().nullable(),
  /**
   * The first screen row that reads differently from the authority's (what a one-line summary quotes); absent or
   * null when no rendered row differs.
   */
  screen_row_change: z
    .strictObject({
      checkpoint: z.int().min(0),
      trigger: z.enum(['before_event', 'after_resize', 'final', 'quiet']),
      row: z.int().min(1),
      authority: z.string(),
      reconstruction: z.string(),
    })
    .nullable()
    .optional(),
})
export type AssertionRecord = z.output<typeof assertionRecordSchema>

export interface RecordContext {
  readonly project: string
  readonly attempt: { readonly retry: number; readonly repeat: number }
  readonly testFile: string
  readonly testName: string
  readonly entry: number
  readonly location: SourceLocation | null
  readonly negated: boolean
}

/**
 * One serialization per capture: a test usually checks the same capture with toMatchCapture and
 * toSatisfyTrace, and each record carries it.
 */
const serialized = new WeakMap<Evidence, string>()
function serialize(evidence: Evidence): string {
  let text = serialized.get(evidence)
  if (text === undefined) {
    text = serializeEvidence(evidence)
    serialized.set(evidence, text)
  }
  return text
}

function base(context: RecordContext) {
  return {
    format: ASSERTION_RECORD_FORMAT,
    format_version: ASSERTION_RECORD_VERSION,
    project: context.project,
    test_file: context.testFile,
    test_name: context.testName,
    attempt: { retry: context.attempt.retry, repeat: context.attempt.repeat },
    entry: context.entry,
    location: context.location,
    negated: context.negated,
  } as const
}

function outcomeOfVerdict(verdict: Comparison['verdict'] | TraceResult['verdict']): AssertionOutcome {
  return verdict === 'equivalent' || verdict === 'satisfied'
    ? 'matched'
    : verdict === 'different' || verdict === 'violated'
      ? 'different'
      : 'unknown'
}

/** `received` and `authority` are the matcher's validated values, or null when they were not Evidence. */
export function captureAssertionRecord(
  context: RecordContext,
  result: CaptureMatchResult,
  received: Evidence | null,
  authority: Evidence | null,
): AssertionRecord {
  const outcome: AssertionOutcome =
    result.count === 'added'
      ? 'written'
      : result.count === 'updated'
        ? 'updated'
        : result.comparison === null
          ? 'error'
          : outcomeOfVerdict(result.comparison.verdict)
  const passed = context.negated ? !result.pass : result.pass
  return {
    ...base(context),
    matcher: 'toMatchCapture',
    outcome,
    passed,
    message: result.comparison === null && !passed ? result.message : null,
    authority_path: result.authorityPath,
    comparison: result.comparison,
    trace: null,
    reconstruction: received === null ? null : serialize(received),
    authority_evidence: authority === null ? null : serialize(authority),
    screen_row_change: result.rowChange,
  }
}

export function traceAssertionRecord(
  context: RecordContext,
  result: TraceMatchResult,
  received: Evidence | null,
): AssertionRecord {
  const passed = context.negated ? !result.pass : result.pass
  return {
    ...base(context),
    matcher: 'toSatisfyTrace',
    outcome: result.result === null ? 'error' : outcomeOfVerdict(result.result.verdict),
    passed,
    message: result.result === null ? result.message : null,
    authority_path: null,
    comparison: null,
    trace: result.result,
    reconstruction: received === null ? null : serialize(received),
    authority_evidence: null,
  }
}

/**
 * The first stack frame in the test file: where the assertion was written. Jest and Vitest both map stacks of
 * transformed test files back to their sources, so line and column are the ones in the editor.
 */
export function locationInTestFile(testFile: string, stack: string | undefined): SourceLocation | null {
  for (const frame of (stack ?? '').split('\n').slice(1)) {
    // `at fn (/path with spaces/(group)/a.test.ts:14:19)` or `at /path/a.test.ts:14:19`.
    const text = frame.trim()
    const match =
      /\((?<where>.+):(?<line>\d+):(?<column>\d+)\)$/.exec(text) ??
      /^at (?<where>.+):(?<line>\d+):(?<column>\d+)$/.exec(text)
    const { where, line: row, column } = match?.groups ?? {}
    if (where === undefined || row === undefined || column === undefined) {
      continue
    }
    const file = where.startsWith('file://') ? fileURLToPath(where) : where
    if (file === testFile) {
      return { file, line: Number(row), column: Number(column) }
    }
  }
  return null
}
