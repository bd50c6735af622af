import * as z from 'zod'
import { FILTER_NAMES } from '../scenario/schema.js'
import { residualUnknownSchema } from '../evidence/schema.js'
import { traceResultSchema } from './trace/index.js'

export const COMPARISON_FORMAT = 'rea.process-capture.comparison'
/** Bumped whenever a field changes meaning; readers reject versions they do not know. */
export const COMPARISON_FORMAT_VERSION = 1

export const DIMENSIONS = ['terminal', 'interaction', 'exit', 'filesystem', 'process'] as const
export type Dimension = (typeof DIMENSIONS)[number]

const count = z.int().min(0)

const chunkPositionSchema = z
  .strictObject({
    chunk_index: count.describe('Index into terminal.chunks.'),
    chunk_byte_offset: count.describe('UTF-8 byte offset of the divergence inside that chunk’s data.'),
    sequence: count.describe('The chunk’s journal sequence number.'),
  })
  .nullable()
  .describe('null when the divergence lies past the end of this side’s retained stream.')

export const locationSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('terminal_stream'),
    byte_offset: count.describe('UTF-8 byte offset in the concatenated normalized stream.'),
    line: z.int().min(1),
    column: z.int().min(1).describe('In characters (code points) from the start of the line.'),
    authority: chunkPositionSchema,
    reconstruction: chunkPositionSchema,
  }),
  z.strictObject({
    kind: z.literal('terminal_frame'),
    checkpoint: count.describe(
      'Ordinal among checkpoint frames (before each event, after each resize, final).',
    ),
    trigger: z.enum(['before_event', 'after_resize', 'final', 'quiet']),
    event_index: count.nullable(),
    authority_frame_index: count.nullable().describe('Index into terminal.frames; null when absent.'),
    reconstruction_frame_index: count.nullable(),
    row: z.int().min(1).nullable().describe('1-based visible row, when the divergence is in a row.'),
    column: z
      .int()
      .min(1)
      .nullable()
      .describe(
        '1-based column in that row: in characters at the stream level, in cells at the screens level.',
      ),
    scrollback_row: z
      .int()
      .min(1)
      .optional()
      .describe(
        'Screens level: the 1-based row of the scrollback (oldest first) when the divergence is there; row is then null.',
      ),
  }),
  z.strictObject({
    kind: z.literal('terminal_redaction'),
    event_index: count
      .nullable()
      .describe('The sensitive input event whose value was masked, when one differs.'),
    stream_byte_offset: count.nullable().describe('Where in the PTY byte stream, when a location differs.'),
  }),
  z.strictObject({
    kind: z.literal('terminal_reply'),
    index: count.describe('Index into terminal.replies of the first reply that differs.'),
  }),
  z.strictObject({ kind: z.literal('interaction'), event_index: count }),
  z.strictObject({ kind: z.literal('exit'), field: z.string() }),
  z.strictObject({
    kind: z.literal('file'),
    path: z.string().describe('Aliased path, e.g. root_0:final.json.'),
  }),
  z.strictObject({ kind: z.literal('process'), field: z.string() }),
])
export type Location = z.output<typeof locationSchema>

export const differenceSchema = z.strictObject({
  dimension: z.enum(DIMENSIONS),
  field: z.string().describe('What differs, as a path into Evidence, e.g. exit.code or terminal.stream.'),
  summary: z.string().describe('One line for people.'),
  authority: z.json().describe('The authority’s value (an excerpt for long text); null when absent.'),
  reconstruction: z.json(),
  location: locationSchema,
})
export type Difference = z.output<typeof differenceSchema>

const unknownSchema = z.strictObject({ reason: z.string(), detail: z.string() })

export const DIMENSION_OUTCOMES = ['equal', 'different', 'unknown', 'not_selected'] as const
export type DimensionOutcome = (typeof DIMENSION_OUTCOMES)[number]

export const dimensionResultSchema = z.strictObject({
  outcome: z.enum(DIMENSION_OUTCOMES),
  differences: z.array(differenceSchema).describe('In order of location; capped, see differences_omitted.'),
  differences_omitted: count,
  unknowns: z
    .array(unknownSchema)
    .describe('What kept this dimension from being proven equal; never empty when the outcome is unknown.'),
  notes: z
    .array(z.string())
    .describe('Observations shown for information only; they never decide the outcome.'),
})
export type DimensionResult = z.output<typeof dimensionResultSchema>

export const VERDICTS = ['equivalent', 'different', 'unknown'] as const
export type Verdict = (typeof VERDICTS)[number]

const sideSchema = z.strictObject({
  source: z.string().nullable().describe('Where the Evidence came from (a file path), when known.'),
  identity_digest: z.string(),
  executable: z.string(),
  arguments: z.array(z.string()),
  captured_at: z.string(),
})

/**
 * How the terminal dimension is compared: `stream`, the normalized output byte for byte with the checkpoint
 * frames as recorded (the default); `screens`, what the screen shows at every checkpoint, cell by cell, with
 * stream differences as notes.
 */
export const TERMINAL_LEVELS = ['stream', 'screens'] as const
export type TerminalLevel = (typeof TERMINAL_LEVELS)[number]

/** The named timing policies; an explicit {@link TimingTolerance} is the fourth kind. */
export const TIMING_POLICIES = ['tolerant', 'strict', 'ignore'] as const
export type NamedTimingPolicy = (typeof TIMING_POLICIES)[number]

/**
 * An explicit tolerance: two times differ only when they are more than `tolerance_ms` apart **and** more than
 * `ratio` (0 to 1) of the larger one. A ratio r lets one side take up to 1 / (1 − r) times as long: 0.5 → 2×,
 * 0.75 → 4×.
 */
export interface TimingTolerance {
  readonly tolerance_ms: number
  readonly ratio: number
}

/**
 * How timing values (`at_ms`, `elapsed_ms`, `sent_at_ms`) count: `tolerant` (250 ms and 50 %), `strict` (equal
 * to the millisecond), `ignore` (shown as notes, never a difference) or an explicit tolerance.
 */
export type TimingPolicy = NamedTimingPolicy | TimingTolerance

export const comparisonSchema = z
  .strictObject({
    format: z.literal(COMPARISON_FORMAT),
    format_version: z.literal(COMPARISON_FORMAT_VERSION),
    rea_version: z.string(),
    verdict: z.enum(VERDICTS),
    verdict_basis: z
      .enum(['dimensions', 'trace'])
      .describe('With a trace specification the trace verdicts of both captures decide.'),
    contract_sha256: z.string().describe('The comparison contract both captures share.'),
    authority: sideSchema,
    reconstruction: sideSchema,
    timing: z
      .strictObject({
        policy: z
          .enum([...TIMING_POLICIES, 'tolerance'])
          .describe('The policy used; `tolerance` is an explicit { tolerance_ms, ratio }.'),
        min_ms: count.describe(
          'Times differ only when |Δ| exceeds this (`tolerance_ms`; 0 under strict and ignore) …',
        ),
        fraction: z
          .number()
          .min(0)
          .max(1)
          .describe('… and this share of the larger time (`ratio`; 0 under strict and ignore).'),
      })
      .describe('The timing policy the comparison applied. Under ignore no time is compared.'),
    terminal_level: z
      .enum(TERMINAL_LEVELS)
      .default('stream')
      .describe(
        'How the terminal dimension was compared: stream (the normalized output and the checkpoint frames as recorded) or screens (what every checkpoint screen shows, cell by cell). Documents written before the levels existed read as stream.',
      ),
    screens_equal: z
      .boolean()
      .nullable()
      .default(null)
      .describe(
        'At the stream level, when the terminal dimension is different: whether every checkpoint screen is equal at the screens level (the output differs only in how it was drawn). null otherwise.',
      ),
    dimensions: z.strictObject({
      terminal: dimensionResultSchema,
      interaction: dimensionResultSchema,
      exit: dimensionResultSchema,
      filesystem: dimensionResultSchema,
      process: dimensionResultSchema,
    }),
    first_divergence: differenceSchema
      .nullable()
      .describe('The first located difference, dimensions in order.'),
    unknowns: z
      .array(residualUnknownSchema)
      .describe('Every dimension’s unknowns, with the dimension named.'),
    terminal_diff: z
      .strictObject({
        unified: z
          .string()
          .describe('Unified diff of the normalized terminal text, control characters escaped.'),
        truncated: z.boolean().describe('The diff was cut to its size cap.'),
      })
      .nullable()
      .describe('null when the normalized terminal texts are identical.'),
    normalization_hint: z
      .strictObject({
        placeholders: z.array(z.enum(['root', 'cwd', 'user', 'hostname'])),
        filters: z.array(z.enum(FILTER_NAMES)),
        scenario: z.string().describe('The scenario’s normalization member with these rules added.'),
        covered: z
          .strictObject({ lines: z.number().int().min(1), of: z.number().int().min(1) })
          .optional()
          .describe('Present when only some differing lines are such text: how many of how many.'),
      })
      .nullable()
      .optional()
      .describe(
        'When the terminal differs only where these placeholders and filters would replace text (a duration, a time, an id, the checkout path): the rules to add.',
      ),
    redaction_hint: z
      .strictObject({
        redactions: z.array(z.strictObject({ regex: z.string(), replacement: z.string() })),
        scenario: z.string().describe('The scenario’s normalization member with these redactions added.'),
        values: z.array(z.string()).describe('A few of the differing values, `authority → reconstruction`.'),
        covered: z
          .strictObject({ lines: z.number().int().min(1), of: z.number().int().min(1) })
          .optional()
          .describe('Present when only some differing lines are such values: how many of how many.'),
      })
      .optional()
      .describe(
        'When the terminal differs in an id-like value (letters and digits, a digit among them) that no filter replaces: redactions that would replace it, to add if the value changes on every run.',
      ),
    unused_rules: z
      .array(z.string())
      .optional()
      .describe(
        'When the terminal is different: the scenario’s redactions and filters that replaced nothing in either capture (`redaction 0 /regex/`, `filter durations`).',
      ),
    trace: z
      .strictObject({
        verdict: z.enum(['satisfied', 'violated', 'unknown']),
        spec_sha256: z.string(),
        authority: traceResultSchema,
        reconstruction: traceResultSchema,
      })
      .nullable(),
  })
  .describe(
    `REA comparison of two captures, format ${COMPARISON_FORMAT} version ${COMPARISON_FORMAT_VERSION}.`,
  )

export type Comparison = z.output<typeof comparisonSchema>
