import * as z from 'zod'
import {
  FILTER_NAMES,
  literalPatternSchema,
  PLACEHOLDER_NAMES,
  processScenarioSchema,
  redactionSchema as redactionRuleSchema,
  SCENARIO_SIGNALS,
  waitConditionSchema,
} from '../scenario/schema.js'
import { COVERAGE_VARIABLES } from '../scenario/coverage-variables.js'
import { EVIDENCE_FORMAT, EVIDENCE_FORMAT_VERSION } from './format.js'
import { SKIP_CAUSES } from './skip-cause.js'
import { EXCHANGE_OUTCOMES, WAIT_SETTLES } from './input-waits.js'
import { REPLY_TABLE, WIDTH_MODEL } from '../scenario/terminal-model.js'
import { EVENT_DISPATCH } from '../scenario/event-dispatch.js'

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits')
const ms = z.int().min(0)
const count = z.int().min(0)
const position = {
  sequence: z.int().min(0).describe('Global sequence number: the position in the capture’s event journal.'),
  at_ms: ms.describe('Milliseconds from launch on the monotonic clock.'),
}

// ── commitments ────────────────────────────────────────────────────────────────────────────────────────────

// Fields an event has only when the scenario used them, so scenarios without them commit what they always did.
const eventTiming = {
  at_ms: ms.optional().describe('Absent only on an event that waits (after) without an earliest time.'),
  after: waitConditionSchema.optional(),
}

const committedEventSchema = z.union([
  z.strictObject({ type: z.literal('input'), ...eventTiming, sensitive: z.literal(false), data: z.string() }),
  z.strictObject({
    type: z.literal('input'),
    ...eventTiming,
    sensitive: z.literal(false),
    keys: z.array(z.string()).min(1).describe('Key names, sent in order.'),
  }),
  z.strictObject({
    type: z.literal('input'),
    ...eventTiming,
    sensitive: z.literal(true),
    data_bytes: count.describe('Byte count of the sensitive input; the value itself is never persisted.'),
  }),
  z.strictObject({
    type: z.literal('input'),
    ...eventTiming,
    sensitive: z.literal(true),
    key_count: count.describe('How many keys a sensitive keys event sends; the names are never persisted.'),
  }),
  z.strictObject({ type: z.literal('resize'), ...eventTiming, columns: z.int(), rows: z.int() }),
  z.strictObject({ type: z.literal('signal'), ...eventTiming, signal: z.enum(SCENARIO_SIGNALS) }),
])

/**
 * The terminal settings as committed: `answer_queries` appears only when true, so captures made before it
 * existed (which answered nothing) commit the same as captures made with it off. The width model and the reply
 * table name REA's terminal; captures made before they were named have neither and read as the older terminal.
 */
const committedTerminalSchema = z.strictObject({
  columns: z.int(),
  rows: z.int(),
  scrollback: z.int().min(0),
  answer_queries: z.literal(true).optional().describe('Present when REA answered terminal queries.'),
  width_model: z
    .literal(WIDTH_MODEL)
    .optional()
    .describe(
      'How wide characters were drawn: grapheme clusters as current terminals draw them. Absent in captures made before REA named its width model, which drew with Unicode 6 widths.',
    ),
  reply_table: z
    .literal(REPLY_TABLE)
    .optional()
    .describe(
      'With answer_queries: the table of replies REA gave (docs/events.md#terminal-replies). Absent in captures that answered only what the emulator answers by itself.',
    ),
})

const normalizationCommitmentSchema = z.strictObject({
  ports: z.boolean(),
  port_normalization_version: z.string().nullable().describe('Port rules applied; null when none were.'),
  patterns: z.array(literalPatternSchema),
  pattern_normalization_version: z
    .string()
    .nullable()
    .describe('Literal-pattern semantics applied; null when none.'),
  sensitive_redaction_version: z
    .string()
    .nullable()
    .describe('Masking of sensitive input values in output; null when the scenario has none to mask.'),
  placeholders: z
    .array(z.enum(PLACEHOLDER_NAMES))
    .optional()
    .describe('Placeholder names, in their documented order; absent when none. Never the resolved values.'),
  placeholder_normalization_version: z.string().optional().describe('Present with placeholders.'),
  redactions: z
    .array(redactionRuleSchema)
    .optional()
    .describe('The redaction rules, in order; absent when none.'),
  redaction_normalization_version: z.string().optional().describe('Present with redactions.'),
  filters: z
    .array(z.enum(FILTER_NAMES))
    .optional()
    .describe('Built-in filter names, in their documented order; absent when none.'),
  filter_normalization_version: z.string().optional().describe('Present with filters.'),
})

const scenarioShape = processScenarioSchema.shape
const committedDispatchSchema = z
  .literal(EVENT_DISPATCH)
  .optional()
  .describe(
    'When input went in and waits were met (docs/events.md#when-input-goes-in): settled-v1, after the terminal exchange, keys one at a time, waits settled. Present when the scenario types input or waits under that model; absent under the legacy immediate model, which every capture made before it used.',
  )
const committedScenarioSchema = z.strictObject({
  ...scenarioShape,
  terminal: committedTerminalSchema,
  events: z.array(committedEventSchema),
  event_dispatch: committedDispatchSchema,
})

const comparisonContractSchema = z
  .strictObject({
    working_directory: z
      .string()
      .describe('Relative to the capture root with "/" separators; absolute outside it.'),
    environment: scenarioShape.environment,
    home: scenarioShape.home,
    filesystem_observation_paths: scenarioShape.filesystem_observation_paths,
    terminal: committedTerminalSchema,
    terminal_type: z.string().describe('TERM given to the command.'),
    events: z.array(committedEventSchema),
    timeout_ms: scenarioShape.timeout_ms,
    idle_timeout_ms: scenarioShape.idle_timeout_ms,
    settle_ms: scenarioShape.settle_ms,
    finalization_ms: scenarioShape.finalization_ms,
    limits: scenarioShape.limits,
    normalization: normalizationCommitmentSchema,
    line_format: z.string(),
    event_dispatch: committedDispatchSchema,
  })
  .describe('What must be equal for two captures to be comparable. Executable and arguments may differ.')

const commitment = <T extends z.ZodType>(value: T) =>
  z.strictObject({ sha256: sha256Hex.describe('SHA-256 of the value’s canonical JSON.'), value })

const commitmentsSchema = z.strictObject({
  scenario: commitment(committedScenarioSchema),
  executable: commitment(
    z.strictObject({ executable: z.string(), arguments: z.array(z.string()), resolved_path: z.string() }),
  ),
  comparison_contract: commitment(comparisonContractSchema),
  normalization: commitment(normalizationCommitmentSchema),
})

// ── terminal ───────────────────────────────────────────────────────────────────────────────────────────────

export const terminalChunkSchema = z.strictObject({
  ...position,
  data: z.string().describe('Comparison text: the chunk after normalization (and sensitive-input masking).'),
  raw_data: z
    .string()
    .optional()
    .describe('The original text; present only when normalization changed the chunk.'),
  byte_length: count.describe('Original bytes read from the PTY for this chunk.'),
  bytes_base64: z
    .string()
    .optional()
    .describe('Exact original bytes, present only when they are not valid UTF-8.'),
})

export const omittedChunksSchema = z.strictObject({
  ...position,
  last_at_ms: ms,
  count: z.int().min(1),
  bytes: count,
})

const frameBase = {
  ...position,
  trigger: z.enum(['before_event', 'after_resize', 'final', 'quiet']),
  checkpoint: z.boolean().describe('Checkpoint frames are compared; quiet frames are kept for people only.'),
  event_index: z.int().min(0).nullable(),
}

export const terminalFrameSchema = z.discriminatedUnion('status', [
  z.strictObject({
    ...frameBase,
    status: z.literal('retained'),
    columns: z.int().min(1),
    rows: z.int().min(1),
    cursor: z.strictObject({
      row: count,
      column: count,
      visible: z
        .boolean()
        .optional()
        .describe('Whether the cursor was shown (DECTCEM). Absent in captures made before REA recorded it.'),
    }),
    lines: z.array(z.string()).describe('Every visible row, trailing U+0020 removed; blank rows kept.'),
    serialized_state: z.string(),
  }),
  z.strictObject({
    ...frameBase,
    status: z.literal('omitted'),
    reason: z.enum(['rendered_bytes_budget', 'raw_terminal_gap']),
  }),
])

const redactionSchema = z
  .strictObject({
    version: z.string(),
    masked_count: count,
    locations: z.array(
      z.strictObject({
        event_index: count.describe('The sensitive input event whose value was masked.'),
        stream_byte_offset: count.describe('Offset in the whole PTY byte stream.'),
        byte_length: z.int().min(1),
      }),
    ),
    locations_truncated: z.boolean(),
  })
  .describe('Where sensitive input values were masked in terminal output; never the values themselves.')

export const terminalReplySchema = z
  .strictObject({
    ...position,
    query: z
      .enum([
        'cursor_position',
        'device_attributes',
        'secondary_device_attributes',
        'mode_report',
        'status_report',
        'color',
        'terminal_version',
        'terminal_capability',
        'other',
      ])
      .describe('What the program asked, read from the kind of reply the emulator gave.'),
    reply: z.string().describe('The reply written to the PTY, as text.'),
    byte_length: count.describe('UTF-8 bytes written.'),
  })
  .describe('A reply REA wrote back to the PTY for a terminal query, as a real terminal does.')

export const streamNormalizationSchema = z
  .strictObject({
    placeholders: z.array(
      z.strictObject({
        name: z.enum(PLACEHOLDER_NAMES),
        token: z.string().describe('What the value was replaced by, e.g. [ROOT].'),
        status: z.enum(['applied', 'skipped']),
        reason: z
          .enum(['unset', 'too_short', 'same_value'])
          .optional()
          .describe(
            'Why a placeholder was skipped: no value, a value under 3 characters, or the value of another.',
          ),
        same_as: z.enum(PLACEHOLDER_NAMES).optional().describe('For same_value: whose token was written.'),
        replaced: count.describe('Spans replaced in the output.'),
      }),
    ),
    redactions: z.array(z.strictObject({ index: count, replaced: count })),
    filters: z.array(z.strictObject({ name: z.enum(FILTER_NAMES), token: z.string(), replaced: count })),
    hold_limit_characters: count.describe('Undecided text held back beyond this is released as it stands.'),
    held_max_characters: count.describe('The most undecided text held back at once.'),
    early_releases: count.describe(
      'Held text released before the rules could decide it: output went quiet, a frame needed it, or a gap.',
    ),
    limit_releases: count.describe('Held text released because it reached hold_limit_characters.'),
  })
  .describe(
    'What the stream rules (placeholders, redactions, filters) did: per rule whether it applied and how often, never a resolved value.',
  )

const terminalSchema = z.strictObject({
  chunks: z.array(terminalChunkSchema),
  omitted_chunks: z.array(omittedChunksSchema).describe('Runs of chunks left out by limits.output_bytes.'),
  frames: z.array(terminalFrameSchema),
  redaction: redactionSchema
    .nullable()
    .describe('Null when the scenario has no sensitive value of 4+ characters.'),
  replies: z
    .array(terminalReplySchema)
    .optional()
    .describe('Present exactly when terminal.answer_queries was on: the replies REA wrote, in order.'),
  stream_normalization: streamNormalizationSchema
    .optional()
    .describe('Present exactly when the contract names placeholders, redactions or filters.'),
})

// ── interactions, exit, process ───────────────────────────────────────────────────────────────────────────

export const signalDeliverySchema = z.enum(['signaled', 'gone', 'identity-changed', 'unverified'])

export const interactionSchema = z.strictObject({
  ...position,
  event_index: count,
  type: z.enum(['input', 'resize', 'signal']),
  scheduled_at_ms: ms.nullable().describe('The event’s at_ms; null for an event that only waits.'),
  outcome: z.enum(['dispatched', 'skipped', 'failed']),
  reason: z
    .string()
    .optional()
    .describe(
      'Why it was not dispatched, in words: wait_timed_out, who ended the run first, or the failure.',
    ),
  cause: z
    .enum(SKIP_CAUSES)
    .optional()
    .describe(
      'For a skipped event: wait_timed_out, deadline (timeout_ms or idle_timeout_ms ended the run), cancelled, run_failed or target_exited. Absent in Evidence written before causes were recorded.',
    ),
  wait: z
    .strictObject({
      met_at_ms: ms
        .nullable()
        .describe(
          'When the condition was met (for a wait for quiet_ms alone: when the quiet was); null when it never was.',
        ),
      settle: z
        .enum(WAIT_SETTLES)
        .optional()
        .describe(
          'For a wait without quiet_ms: whether the output then went quiet for the settle time, or the wait was met at the settle limit because it never did. Absent in Evidence written before waits settled.',
        ),
      detail: z
        .string()
        .optional()
        .describe('Why a wait ended without its condition, when not by within_ms.'),
    })
    .optional()
    .describe('For an event with after: what became of its wait.'),
  bytes_sent: count.optional().describe('For input sent as keys: the bytes their encoding wrote.'),
  keys_written: count
    .optional()
    .describe(
      'For input sent as keys, when the run ended while they were typed: how many were written. Absent when all were.',
    ),
  exchange: z
    .strictObject({
      replies: z
        .int()
        .min(1)
        .describe('Replies to terminal queries REA had written that the program had not been seen to read.'),
      held_ms: ms.describe('How long the input was held for them (summed over the keys of a keys event).'),
      outcome: z
        .enum(EXCHANGE_OUTCOMES)
        .describe(
          'read: the program read them and then asked nothing more; limit_reached: not within the limit, the input went in anyway; unobservable: REA cannot see the terminal input queue on this host and waited for quiet output only.',
        ),
    })
    .optional()
    .describe(
      'For input: what it waited for in the terminal exchange before it was written; absent when no reply was outstanding, and in Evidence written before REA waited for it.',
    ),
  delivery: signalDeliverySchema
    .optional()
    .describe('For signal events: what became of the identity-checked signal.'),
})

const finalizationSignalSchema = z.strictObject({
  ...position,
  signal: z.enum(['SIGTERM', 'SIGKILL']),
  sent_at_ms: ms.describe('Attempt time relative to the start of finalization, monotonic.'),
  delivery: signalDeliverySchema,
  reason: z.string().optional(),
})

export const exitSchema = z.strictObject({
  ...position,
  code: z
    .int()
    .nullable()
    .describe('Exit status; null for a signal exit, every deadline exit and an unobserved exit.'),
  signal: z
    .int()
    .min(0)
    .nullable()
    .describe('Signal number that ended the root, 0 for none, null when unobserved.'),
  reason: z.enum(['exited', 'timeout', 'idle_timeout', 'cancelled', 'failed']),
  finalization: z
    .strictObject({
      requested_ms: z.int().min(1),
      elapsed_ms: ms.nullable(),
      exit_code: z.int().nullable(),
      signals: z.array(finalizationSignalSchema),
    })
    .optional()
    .describe('Present only when a finalization interval was attempted.'),
})

const rootProcessSchema = z.strictObject({
  pid: z.int().min(1),
  start_ticks: count.nullable(),
  boot_id: z.string().nullable(),
  binding: z.enum(['bound', 'exited_before_binding', 'unverified']),
  binding_reason: z.string().optional(),
})

const attributionSchema = z
  .enum(['root', 'token', 'lineage', 'session'])
  .describe(
    'Why the process is the capture’s: the root, its run token, a seen parent, or the root’s session.',
  )

export const processSampleSchema = z.strictObject({
  ...position,
  processes: z.array(
    z.strictObject({
      pid: z.int().min(1),
      ppid: count,
      pgid: count,
      sid: count,
      start_ticks: count,
      command: z.string().describe('Kernel command name (at most 15 bytes); never argv.'),
      state: z.string(),
      attribution: attributionSchema,
    }),
  ),
})

const processSchema = z.strictObject({
  root: rootProcessSchema.nullable().describe('Null when the command could not be started.'),
  samples: z.array(processSampleSchema),
  coverage: z.literal('sampled').describe('Sampling can miss short-lived or detached descendants.'),
})

const settlementSchema = z.strictObject({
  status: z.enum(['quiesced', 'cleanup_needed', 'unverifiable']),
  elapsed_ms: ms,
  reason: z.string().optional(),
})

const cleanupSchema = z.strictObject({
  owned_processes: z.enum(['not_needed', 'completed', 'incomplete', 'unsupported']),
  killed: z.array(
    z.strictObject({
      pid: z.int().min(1),
      start_ticks: count,
      command: z.string(),
      attribution: attributionSchema,
      delivery: signalDeliverySchema,
      reason: z.string().optional(),
      confirmed_gone: z.boolean(),
    }),
  ),
  unverified_processes: z
    .array(
      z.strictObject({
        pid: z.int().min(1),
        start_ticks: count,
        reason: z.string(),
        related: z.boolean().describe('In the root’s session or group, or a child of an owned process.'),
      }),
    )
    .describe('Processes started during the capture whose ownership could not be read; never signalled.'),
  renderer: z.enum(['disposed', 'not_created']),
  temporary_root: z.enum(['removed', 'not_created', 'failed']),
  elapsed_ms: ms,
})

// ── filesystem ─────────────────────────────────────────────────────────────────────────────────────────────

const permissionMode = z
  .string()
  .regex(/^0[0-7]{3,4}$/)
  .describe('Permission bits in octal, e.g. "0644".')

export const fileEntrySchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('file'),
    size: count,
    sha256: sha256Hex
      .nullable()
      .describe('SHA-256 of the whole file; null when not hashed (see truncation_details).'),
    mode: permissionMode,
  }),
  z.strictObject({ type: z.literal('directory'), mode: permissionMode }),
  z.strictObject({
    type: z.literal('symlink'),
    target: z.string().describe('As readlink returns it; never followed.'),
  }),
  z.strictObject({
    type: z.enum(['fifo', 'socket', 'character_device', 'block_device']),
    mode: permissionMode,
  }),
])

/** Keys are `root_N:relative/path` (`root_N:.` for the root itself). */
const filesSchema = z.record(z.string(), fileEntrySchema)

const normalizedResultSchema = z.strictObject({
  files_before: filesSchema
    .nullable()
    .describe('The before_launch checkpoint; null when no path was selected.'),
  files_after: filesSchema
    .nullable()
    .describe('The after_settlement checkpoint; null when no path was selected.'),
})

const effectChange = z.enum(['type', 'size', 'sha256', 'mode', 'target'])

export const fileEffectSchema = z.discriminatedUnion('status', [
  z.strictObject({
    path: z.string(),
    status: z.enum(['created', 'deleted', 'unchanged']),
    before: fileEntrySchema.nullable(),
    after: fileEntrySchema.nullable(),
  }),
  z.strictObject({
    path: z.string(),
    status: z.literal('modified'),
    before: fileEntrySchema,
    after: fileEntrySchema,
    changes: z.array(effectChange).min(1),
  }),
  z.strictObject({
    path: z.string(),
    status: z.literal('unknown'),
    before: fileEntrySchema.nullable().describe('null: absent or not observed on that side.'),
    after: fileEntrySchema.nullable(),
    reason: z.string(),
  }),
])

const rootStateSchema = z.enum(['directory', 'file', 'symlink', 'other', 'missing', 'unreadable'])

const filesystemSchema = z.strictObject({
  status: z.enum(['not_selected', 'observed']),
  roots: z.array(
    z.strictObject({
      alias: z.string(),
      path: z.string().describe('As written in the scenario, relative to working_directory.'),
      before: rootStateSchema,
      after: rootStateSchema.nullable().describe('null when the after_settlement checkpoint was not taken.'),
    }),
  ),
  checkpoints: z.array(z.strictObject({ ...position, name: z.enum(['before_launch', 'after_settlement']) })),
  effects: z.array(fileEffectSchema),
})

export const filesystemAccountingSchema = z.strictObject({
  file_count_limit: count,
  depth_limit: count,
  entries_retained: count,
  count_limit_reached: z.boolean(),
  depth_limited: z
    .array(z.string())
    .describe('Directories whose contents lie below limits.filesystem_depth.'),
  incomplete_directories: z
    .array(z.string())
    .describe('Directories cut by limits.file_count: a subset was kept.'),
  enumeration_failures: z.array(z.strictObject({ path: z.string(), system_code: z.string() })),
  file_bytes_budget: count,
  bytes_hashed: count,
  hash_omissions: z.array(
    z.strictObject({
      path: z.string(),
      size: count,
      remaining_budget: count,
      reason: z.enum(['file_bytes_budget', 'file_changed_or_short_read', 'file_unavailable', 'cancelled']),
      system_code: z.string().nullable(),
    }),
  ),
  roots: z.array(z.strictObject({ alias: z.string(), exhausted: z.boolean() })),
  truncated: z.boolean(),
})

// ── accounting ─────────────────────────────────────────────────────────────────────────────────────────────

const truncationDetailsSchema = z
  .strictObject({
    raw_terminal: z.strictObject({
      budget_bytes: count,
      observed_bytes: count,
      retained_bytes: count,
      observed_chunks: count,
      retained_chunks: count,
      omitted_chunks: count,
      omitted_bytes: count,
      drain: z
        .enum(['complete', 'incomplete'])
        .describe('Whether all output written before the root exited was read.'),
      truncated: z.boolean(),
    }),
    rendered_terminal: z.strictObject({
      budget_bytes: count,
      retained_bytes: count,
      observed_frames: count,
      retained_frames: count,
      omitted_for_budget: count,
      omitted_for_raw_gap: count,
      truncated: z.boolean(),
    }),
    filesystem_before: filesystemAccountingSchema.nullable(),
    filesystem_after: filesystemAccountingSchema.nullable(),
    process: z.strictObject({
      sample_limit: count,
      samples_retained: count,
      limit_reached: z.boolean(),
      partial: z.boolean(),
      coverage: z.literal('sampled'),
    }),
  })
  .describe('What each limit or failure dropped, per source.')

export const residualUnknownSchema = z.strictObject({
  dimension: z.enum(['terminal', 'interaction', 'exit', 'filesystem', 'process']),
  reason: z.string(),
  detail: z.string(),
})

// ── coverage ───────────────────────────────────────────────────────────────────────────────────────────────

const coverageSchema = z
  .strictObject({
    variables: z
      .array(z.enum(COVERAGE_VARIABLES))
      .min(1)
      .describe(
        'The coverage variables set in the program’s launch environment, by REA or inherited, by name only: ' +
          'where the coverage went is never recorded.',
      ),
    v8_files_written: count
      .nullable()
      .describe(
        'V8 coverage files the capture’s processes wrote into the folder REA gave it (NODE_V8_COVERAGE set by ' +
          'REA), one per Node.js process that exited; 0 when none did (not a Node.js program, or every one ' +
          'ended by a signal). Null when REA gave no folder (the variable was inherited) or could not count.',
      ),
  })
  .describe(
    'Present when coverage was collected from the program. Observation, not behaviour: never compared, so a ' +
      'capture with coverage and one without compare as if both had none.',
  )

// ── the document ───────────────────────────────────────────────────────────────────────────────────────────

const evidenceShape = {
  format: z.literal(EVIDENCE_FORMAT),
  format_version: z
    .int()
    .min(0)
    .describe('Compared captures must share it; recapture both sides on a change.'),
  rea_version: z.string(),
  captured_at: z.iso.datetime().describe('Wall-clock start, for people; never compared.'),
  host: z.strictObject({
    platform: z.string(),
    arch: z.string(),
    node_version: z.string(),
    capture_root: z
      .string()
      .describe('Absolute capture root on the capturing host; not part of the contract.'),
    pty_backend: z.string(),
  }),
  commitments: commitmentsSchema,
  disposition: z.enum(['exited', 'timeout', 'idle_timeout', 'cancelled', 'failed']),
  failure: z.string().optional().describe('For disposition failed: what went wrong inside REA.'),
  coverage: coverageSchema.optional(),
  duration_ms: ms,
  terminal: terminalSchema,
  interactions: z.array(interactionSchema),
  exit: exitSchema,
  process: processSchema,
  settlement: settlementSchema,
  cleanup: cleanupSchema,
  normalized_result: normalizedResultSchema,
  filesystem: filesystemSchema,
  truncation_details: truncationDetailsSchema,
  truncated: z.boolean().describe('True only when a limit or a failure actually dropped observations.'),
  residual_unknowns: z.array(residualUnknownSchema),
  machine_values: z
    .strictObject({
      version: z.string().describe('The rewrite applied: placeholder-tokens-v1.'),
      placeholders: z
        .array(z.enum(PLACEHOLDER_NAMES))
        .describe('The placeholders whose values are stored as their tokens, in their documented order.'),
      replaced: count.describe('Spans rewritten outside the comparison text, which the placeholders made.'),
    })
    .optional()
    .describe(
      'Present in a stored authority: the values its placeholders stand for (paths, user, host) are held as their tokens everywhere, the capture root, raw terminal text, scenario and paths included; never a value.',
    ),
  journal: z.strictObject({
    complete: z.boolean().describe('Every observation made is present with its content.'),
    next_sequence: count.describe('Sequence numbers 0 … next_sequence − 1 are all used, each exactly once.'),
    incomplete_reasons: z.array(z.string()),
  }),
}

/** Evidence without its identity digest: what the digest is computed over. */
export const evidenceBodySchema = z.strictObject(evidenceShape)

export const evidenceSchema = z
  .strictObject({
    ...evidenceShape,
    identity_digest: sha256Hex.describe(
      'SHA-256 over the canonical JSON of everything else in the document.',
    ),
  })
  .describe(`REA process capture Evidence, format ${EVIDENCE_FORMAT} version ${EVIDENCE_FORMAT_VERSION}.`)

export type Evidence = z.output<typeof evidenceSchema>
export type EvidenceBody = z.output<typeof evidenceBodySchema>
export type TerminalChunk = z.output<typeof terminalChunkSchema>
export type OmittedChunks = z.output<typeof omittedChunksSchema>
export type TerminalFrame = z.output<typeof terminalFrameSchema>
export type Interaction = z.output<typeof interactionSchema>
export type TerminalReply = z.output<typeof terminalReplySchema>
export type ExitRecord = z.output<typeof exitSchema>
export type ProcessSample = z.output<typeof processSampleSchema>
export type FileEntry = z.output<typeof fileEntrySchema>
export type FilesystemCheckpoint = z.output<typeof filesystemSchema>['checkpoints'][number]
export type FileEffect = z.output<typeof fileEffectSchema>
export type FilesystemAccounting = Omit<z.output<typeof filesystemAccountingSchema>, 'truncated'>
export type ResidualUnknown = z.output<typeof residualUnknownSchema>
export type TruncationDetails = EvidenceBody['truncation_details']
export type CoverageRecord = z.output<typeof coverageSchema>
