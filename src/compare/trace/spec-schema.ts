import * as z from 'zod'
import { SKIP_CAUSES } from '../../evidence/skip-cause.js'

/** Identifies REA trace specifications. */
export const TRACE_SPEC_FORMAT = 'rea.process-capture.trace-spec'
/** The trace-specification format version this REA reads. */
export const TRACE_SPEC_FORMAT_VERSION = 1

const idSchema = z
  .string()
  .min(1)
  .describe('Names the event in order constraints and in results; unique within the specification.')

export const lineEventSchema = z.strictObject({
  id: idSchema,
  line: z
    .string()
    .describe(
      'A whole terminal line, matched exactly after normalization: escape sequences removed, trailing spaces and carriage returns removed.',
    ),
  count: z
    .int()
    .min(1)
    .default(1)
    .describe('How many times the line occurs, exactly. Blank lines are not events.'),
})

export const interactionEventSchema = z.strictObject({
  id: idSchema,
  interaction: z.strictObject({
    event_index: z.int().min(0).describe('Index of the scenario event in the scenario’s events array.'),
    type: z.enum(['input', 'resize', 'signal']).optional().describe('Checked when given.'),
    outcome: z.enum(['dispatched', 'skipped', 'failed']),
    skip_cause: z
      .enum(SKIP_CAUSES)
      .optional()
      .describe(
        'For a skipped event, checked when given: its wait ran out, REA ended the run (deadline, cancelled, run_failed), or the target had exited first.',
      ),
  }),
})

export const exitEventSchema = z.strictObject({
  id: idSchema,
  exit: z.strictObject({
    reason: z.enum(['exited', 'timeout', 'idle_timeout', 'cancelled', 'failed']),
    code: z.int().nullable().optional().describe('Checked when given; null for a signal or deadline exit.'),
    signal: z.int().min(0).optional().describe('Checked when given; 0 when no signal ended the command.'),
  }),
})

export const FILE_PATH_PATTERN = /^root_(0|[1-9][0-9]*):./

export const fileEventSchema = z.strictObject({
  id: idSchema,
  file: z.strictObject({
    path: z
      .string()
      .regex(FILE_PATH_PATTERN)
      .describe('An entry key as in normalized_result.files_after, e.g. "root_0:report.json".'),
    effect: z
      .enum(['created', 'deleted', 'modified'])
      .describe(
        'The effect between the before_launch and after_settlement snapshots; unchanged is no event.',
      ),
  }),
})

export const traceEventSchema = z
  .union([lineEventSchema, interactionEventSchema, exitEventSchema, fileEventSchema])
  .describe('One accepted event: exactly one of line, interaction, exit or file, with an id.')

export const orderConstraintSchema = z
  .strictObject({
    before: idSchema.describe('Every occurrence of this event …'),
    after: idSchema.describe('… is observed before every occurrence of this one.'),
  })
  .describe('A partial-order edge between two line, interaction or exit events.')

export const traceSpecSchema = z
  .strictObject({
    format: z.literal(TRACE_SPEC_FORMAT),
    format_version: z.literal(TRACE_SPEC_FORMAT_VERSION),
    description: z.string().optional().describe('For people; no effect on checking.'),
    events: z
      .array(traceEventSchema)
      .describe('Every event a capture may contain. An observed event none of them accepts is a violation.'),
    order: z
      .array(orderConstraintSchema)
      .default([])
      .describe('Ordering constraints; they may not form a cycle.'),
  })
  .describe(`REA trace specification, format ${TRACE_SPEC_FORMAT} version ${TRACE_SPEC_FORMAT_VERSION}.`)

export type TraceSpec = z.output<typeof traceSpecSchema>
export type TraceSpecInput = z.input<typeof traceSpecSchema>
export type TraceEvent = TraceSpec['events'][number]
export type OrderConstraint = TraceSpec['order'][number]

/** The observation kinds a spec event can accept; each event has exactly one of these keys. */
export const TRACE_EVENT_KINDS = ['line', 'interaction', 'exit', 'file'] as const
export type TraceEventKind = (typeof TRACE_EVENT_KINDS)[number]

export function traceEventKind(event: TraceEvent): TraceEventKind {
  if ('line' in event) {
    return 'line'
  }
  if ('interaction' in event) {
    return 'interaction'
  }
  return 'exit' in event ? 'exit' : 'file'
}
