import * as z from 'zod'
import { ReaError, type ReaIssue } from '../../errors.js'
import {
  readInputFile,
  readInputFileSync,
  TRACE_SPEC_FILE_MAX_BYTES,
  type InputFileKind,
} from '../../internal/read-input-file.js'
import { showName } from '../../internal/escape-controls.js'
import { describeValue, zodIssuesToReaIssues } from '../../internal/zod-issues.js'
import {
  exitEventSchema,
  fileEventSchema,
  interactionEventSchema,
  lineEventSchema,
  TRACE_EVENT_KINDS,
  TRACE_SPEC_FORMAT,
  traceSpecSchema,
  type TraceEventKind,
  type TraceSpec,
} from './spec-schema.js'
import { specSemanticIssues } from './spec-rules.js'

const VARIANTS: Record<TraceEventKind, z.ZodType> = {
  line: lineEventSchema,
  interaction: interactionEventSchema,
  exit: exitEventSchema,
  file: fileEventSchema,
}

// Events are checked one by one against the variant their key names, so a typo inside an event is reported
// with its field and rule rather than as "matches none of four shapes".
const outlineSchema = traceSpecSchema.extend({ events: z.array(z.unknown()) })

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Validates a trace specification and applies its defaults. Throws one `INVALID_TRACE_SPEC` error that lists
 * every problem found (schema, duplicate ids and matchers, lines that can never match, order constraints that
 * name unknown or file events, cycles), each with its field path and rule.
 *
 * @example
 * const spec = parseTraceSpec(JSON.parse(await readFile('trace.json', 'utf8')), 'trace.json')
 */
export function parseTraceSpec(document: unknown, source = 'Trace specification'): TraceSpec {
  if (!isRecord(document)) {
    throw invalid(source, [
      { path: '', rule: 'type', message: `must be a JSON object: got ${describeValue(document)}` },
    ])
  }
  if (document['format'] !== TRACE_SPEC_FORMAT) {
    // Probably another kind of document (often Evidence); listing its every field would bury the point.
    throw invalid(source, [
      {
        path: 'format',
        rule: 'format',
        message: `must be "${TRACE_SPEC_FORMAT}": got ${describeValue(document['format'])}; is this a trace specification?`,
      },
    ])
  }
  const issues: ReaIssue[] = []
  const outline = outlineSchema.safeParse(document, { reportInput: true })
  if (!outline.success) {
    issues.push(...zodIssuesToReaIssues(outline.error, outlineSchema, document))
  }
  const events = Array.isArray(document['events']) ? (document['events'] as unknown[]) : []
  events.forEach((event, index) => issues.push(...eventIssues(event, `events[${index}]`)))
  issues.push(...specSemanticIssues(document))
  if (issues.length === 0) {
    const parsed = traceSpecSchema.safeParse(document, { reportInput: true })
    if (parsed.success) {
      return parsed.data
    }
    issues.push(...zodIssuesToReaIssues(parsed.error, traceSpecSchema, document))
  }
  throw invalid(source, issues)
}

function eventIssues(event: unknown, path: string): ReaIssue[] {
  if (!isRecord(event)) {
    return [{ path, rule: 'type', message: `must be an object: got ${describeValue(event)}` }]
  }
  const kinds = TRACE_EVENT_KINDS.filter((kind) => Object.hasOwn(event, kind))
  const [kind] = kinds
  if (kind === undefined || kinds.length > 1) {
    return [
      {
        path,
        rule: 'event_kind',
        message: `must have exactly one of ${TRACE_EVENT_KINDS.join(', ')}: got ${kinds.length === 0 ? 'none' : kinds.join(' and ')}`,
      },
    ]
  }
  const issues: ReaIssue[] = []
  let candidate = event
  if (kind !== 'line' && Object.hasOwn(event, 'count')) {
    issues.push({
      path: `${path}.count`,
      rule: 'count_not_applicable',
      message: `applies to line events only: a capture has one exit, one record per scenario event and one effect per path`,
    })
    const { count: _count, ...rest } = event
    candidate = rest
  }
  const schema = VARIANTS[kind]
  const parsed = schema.safeParse(candidate, { reportInput: true })
  if (!parsed.success) {
    issues.push(
      ...zodIssuesToReaIssues(parsed.error, schema, candidate).map((issue) => ({
        ...issue,
        path: issue.path === '' ? path : `${path}.${issue.path}`,
        // zod names only the pattern's kind ("regex"); say what an entry key looks like instead.
        ...(issue.path === 'file.path' && issue.rule === 'format'
          ? { message: `${ENTRY_KEY_RULE}: got ${describeValue(valueAtFilePath(candidate))}` }
          : {}),
      })),
    )
  }
  return issues
}

const ENTRY_KEY_RULE =
  'must be an entry key as in normalized_result.files_after: a root alias, a colon and the path below it, e.g. "root_0:report.json" (or "root_0:." for the root itself)'

function valueAtFilePath(event: Record<string, unknown>): unknown {
  const file = event['file']
  return isRecord(file) ? file['path'] : undefined
}

function invalid(source: string, issues: readonly ReaIssue[]): ReaError {
  const count = issues.length
  return new ReaError(
    'INVALID_TRACE_SPEC',
    `${source} is not a valid trace specification (${count} ${count === 1 ? 'problem' : 'problems'}):`,
    { issues, hint: 'The format is described in docs/trace.md; `rea schema trace` prints its JSON Schema.' },
  )
}

const TRACE_SPEC_FILE: InputFileKind = {
  label: 'Trace specification',
  code: 'INVALID_TRACE_SPEC',
  maxBytes: TRACE_SPEC_FILE_MAX_BYTES,
}

/**
 * Reads and validates a trace-specification file. An unreadable file (or one that is not a regular file, or
 * is too large), empty text or invalid JSON is the same `INVALID_TRACE_SPEC` error as a bad specification,
 * with a message naming the file and what went wrong.
 */
export async function readTraceSpecFile(path: string): Promise<TraceSpec> {
  return parseTraceSpecText(await readInputFile(path, TRACE_SPEC_FILE), showName(path))
}

/** The same as {@link readTraceSpecFile}, for synchronous callers such as matchers. */
export function readTraceSpecFileSync(path: string): TraceSpec {
  return parseTraceSpecText(readInputFileSync(path, TRACE_SPEC_FILE), showName(path))
}

function parseTraceSpecText(text: string, path: string): TraceSpec {
  if (text.trim() === '') {
    throw new ReaError(
      'INVALID_TRACE_SPEC',
      `Trace specification ${path} is empty: expected a JSON document with "format": "${TRACE_SPEC_FORMAT}".`,
    )
  }
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch (error) {
    throw new ReaError(
      'INVALID_TRACE_SPEC',
      `Trace specification ${path} is not valid JSON: ${(error as Error).message}.`,
      { cause: error },
    )
  }
  return parseTraceSpec(document, path)
}
