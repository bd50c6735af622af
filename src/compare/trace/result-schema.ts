import * as z from 'zod'
import { SKIP_CAUSES } from '../../evidence/skip-cause.js'

const count = z.int().min(0)
const sequence = z.int().min(0).describe('Journal sequence of the observation.')
const eventId = z.string().describe('The spec event’s id.')

export const lineObservationSchema = z.strictObject({
  kind: z.literal('line'),
  sequence: sequence.describe(
    'Journal sequence of the chunk holding the line’s end: its position in the order.',
  ),
  chunk_index: count.describe('Index into terminal.chunks of the chunk where the line starts.'),
  byte_offset: count.describe('UTF-8 byte offset of the line’s start within that chunk’s data.'),
  text: z.string().describe('The normalized line.'),
})

export const interactionObservationSchema = z.strictObject({
  kind: z.literal('interaction'),
  sequence,
  event_index: count,
  type: z.enum(['input', 'resize', 'signal']),
  outcome: z.enum(['dispatched', 'skipped', 'failed']),
  skip_cause: z.enum(SKIP_CAUSES).optional(),
})

export const exitObservationSchema = z.strictObject({
  kind: z.literal('exit'),
  sequence,
  reason: z.enum(['exited', 'timeout', 'idle_timeout', 'cancelled', 'failed']),
  code: z.int().nullable(),
  signal: z.int().min(0),
})

export const fileObservationSchema = z.strictObject({
  kind: z.literal('file'),
  path: z.string(),
  effect: z.enum(['created', 'deleted', 'modified']),
})

export const observationSchema = z
  .discriminatedUnion('kind', [
    lineObservationSchema,
    interactionObservationSchema,
    exitObservationSchema,
    fileObservationSchema,
  ])
  .describe('An observed event and where it sits in the Evidence.')

export const traceViolationSchema = z.discriminatedUnion('kind', [
  z
    .strictObject({
      kind: z.literal('unmatched_observation'),
      observation: observationSchema,
      detail: z.string(),
    })
    .describe('An observed event that no spec event accepts.'),
  z
    .strictObject({
      kind: z.literal('mismatched_observation'),
      event_id: eventId,
      observation: observationSchema,
      detail: z.string(),
    })
    .describe('The observation a spec event names (its scenario event, the exit, its path) differs from it.'),
  z
    .strictObject({
      kind: z.literal('count_mismatch'),
      event_id: eventId,
      expected_count: z.int().min(1),
      observed_count: count,
      observations: z.array(observationSchema).describe('The first occurrences observed, if any.'),
      detail: z.string(),
    })
    .describe('More occurrences than the spec accepts, or fewer where coverage was complete.'),
  z
    .strictObject({
      kind: z.literal('order_inversion'),
      constraint_index: count.describe('Index into the spec’s order array.'),
      before: eventId,
      after: eventId,
      before_observation: observationSchema.describe('An occurrence of `before` …'),
      after_observation: observationSchema.describe('… observed after this occurrence of `after`.'),
      detail: z.string(),
    })
    .describe(
      'An occurrence of `after` observed before an occurrence of `before`, in an order that proves it.',
    ),
])

export const traceUnknownSchema = z.strictObject({
  reason: z.string().describe('Stable identifier, e.g. terminal_output_omitted or order_unresolved.'),
  detail: z.string(),
  event_id: eventId.optional(),
  constraint_index: count.optional(),
})

export const traceEventResultSchema = z.strictObject({
  id: eventId,
  kind: z.enum(['line', 'interaction', 'exit', 'file']),
  description: z.string().describe('The spec event in words, e.g. line "all done" or exit exited code 0.'),
  expected_count: z.int().min(1),
  observed_count: count,
  status: z.enum(['matched', 'mismatch', 'unknown']),
  reason: z.string().optional().describe('For status unknown: the unknown reason that prevents a decision.'),
  observations: z.array(observationSchema).describe('The occurrences it accepted, first ones when many.'),
  observations_omitted: count,
})

export const traceConstraintResultSchema = z.strictObject({
  index: count,
  before: eventId,
  after: eventId,
  status: z.enum(['satisfied', 'violated', 'unknown']),
  reason: z.string().optional().describe('For status unknown: why.'),
  pairs_checked: count.describe('Observed (before, after) occurrence pairs; 0 when either was not observed.'),
})

export const traceResultSchema = z
  .strictObject({
    verdict: z
      .enum(['satisfied', 'violated', 'unknown'])
      .describe(
        'violated if any violation was observed, else unknown if any unknown reason, else satisfied.',
      ),
    events: z.array(traceEventResultSchema).describe('One entry per spec event, in spec order.'),
    constraints: z.array(traceConstraintResultSchema).describe('One entry per order constraint.'),
    violations: z.array(traceViolationSchema),
    violations_omitted: count.describe('Violations beyond the reported ones; they count for the verdict.'),
    unknown_reasons: z.array(traceUnknownSchema),
    observed: z
      .strictObject({
        lines: count,
        partial_lines: count.describe('Fragments cut by omitted output: neither matched nor judged.'),
        interactions: count,
        exits: count,
        file_effects: count.describe('created, deleted and modified effects.'),
      })
      .describe('How many events of each kind the capture holds.'),
  })
  .describe('The outcome of checking one capture against a trace specification.')

export type TraceResult = z.output<typeof traceResultSchema>
export type TraceObservation = z.output<typeof observationSchema>
export type TraceViolation = z.output<typeof traceViolationSchema>
export type TraceUnknown = z.output<typeof traceUnknownSchema>
export type TraceEventResult = z.output<typeof traceEventResultSchema>
export type TraceConstraintResult = z.output<typeof traceConstraintResultSchema>
