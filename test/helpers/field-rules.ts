import type { Dimension } from '../../src/compare/comparison-schema.js'

/*
 * The comparison's field table: what the comparators do to each Evidence field, stated once so tests can check it
 * (every schema field has a rule; a change to any compared field changes the verdict) and docs/comparison.md can
 * show it. The engine never reads it, so it lives with the tests, not in src/.
 */

/**
 * What becomes of one Evidence field when two captures are compared. Every field has exactly one rule, so
 * "equivalent" can only mean that everything the two documents say agrees:
 * - `compared`: read by a comparator; a difference makes its dimension different (or, for the contract, the
 *   comparison is rejected);
 * - `derived`: recomputed on import from the fields it follows from; a contradiction rejects the document;
 * - `not_compared`: deliberately left out of the verdict, for the reason given.
 */
export type FieldRule =
  | { readonly kind: 'compared'; readonly dimension: RuleDimension; readonly how: string }
  | { readonly kind: 'derived'; readonly from: string }
  | { readonly kind: 'not_compared'; readonly why: string }

/** `contract`: the comparison is rejected when it differs; `named`: the dimension the record itself names. */
export type RuleDimension = Dimension | 'contract' | 'named'

/** A set of records inside one array whose field follows another rule than the rest. */
export type RecordCondition = 'quiet_frame' | 'undispatched_interaction' | 'skipped_interaction'

export interface FieldRuleEntry {
  /**
   * Schema path: `.` between keys, `[]` for array items, `{}` for record values (`files_after{}.sha256`). A path
   * ending in `.*` covers every field below it.
   */
  readonly path: string
  readonly rule: FieldRule
  /** Records of the innermost array that meet `condition` follow `rule` instead. */
  readonly except?: { readonly condition: RecordCondition; readonly rule: FieldRule }
}

const compared = (dimension: RuleDimension, how: string): FieldRule => ({
  kind: 'compared',
  dimension,
  how,
})
const derived = (from: string): FieldRule => ({ kind: 'derived', from })
const notCompared = (why: string): FieldRule => ({ kind: 'not_compared', why })

const JOURNAL = derived(
  'the journal (0 … journal.next_sequence − 1, each used once, increasing within each array)',
)
const ARRIVAL = notCompared(
  'when a record was made depends on scheduling and machine speed; the records themselves are compared',
)
const QUIET_FRAME = {
  condition: 'quiet_frame',
  rule: notCompared('quiet frames are taken when output pauses, which depends on timing; kept for people'),
} as const
const IN_CONTRACT = compared('contract', 'must be equal, or the comparison is rejected')
const HOST = notCompared('a fact about the capturing host; captures from different machines must compare')

const fileEntryRules = (side: 'files_before' | 'files_after', checkpoint: string): FieldRuleEntry[] =>
  ['type', 'size', 'sha256', 'mode', 'target'].map((field) => ({
    path: `normalized_result.${side}{}.${field}`,
    rule: compared('filesystem', `each entry's state at ${checkpoint}, path by path`),
  }))

const accountingRules = (name: 'filesystem_before' | 'filesystem_after'): FieldRuleEntry[] => {
  const files = name === 'filesystem_before' ? 'files_before' : 'files_after'
  const prefix = `truncation_details.${name}`
  return [
    { path: `${prefix}.file_count_limit`, rule: derived('limits.file_count') },
    { path: `${prefix}.depth_limit`, rule: derived('limits.filesystem_depth') },
    {
      path: `${prefix}.entries_retained`,
      rule: derived(`normalized_result.${files} (its number of entries)`),
    },
    {
      path: `${prefix}.count_limit_reached`,
      rule: derived(
        'incomplete_directories and roots (set when a directory was cut; then a root is not exhausted)',
      ),
    },
    {
      path: `${prefix}.depth_limited[]`,
      rule: derived(`normalized_result.${files} and roots (a directory of a root that is not exhausted)`),
    },
    {
      path: `${prefix}.incomplete_directories[]`,
      rule: derived(`normalized_result.${files} and roots (a directory of a root that is not exhausted)`),
    },
    {
      path: `${prefix}.enumeration_failures[].path`,
      rule: compared('filesystem', 'a folder that could not be read makes the dimension unknown'),
    },
    {
      path: `${prefix}.enumeration_failures[].system_code`,
      rule: compared('filesystem', 'named in the unknown it causes'),
    },
    { path: `${prefix}.file_bytes_budget`, rule: derived('limits.file_bytes') },
    {
      path: `${prefix}.bytes_hashed`,
      rule: derived(`normalized_result.${files} (the sizes of the files with a digest)`),
    },
    {
      path: `${prefix}.hash_omissions[].path`,
      rule: derived(`normalized_result.${files} (exactly the files without a digest)`),
    },
    { path: `${prefix}.hash_omissions[].size`, rule: derived('that file entry’s size') },
    {
      path: `${prefix}.hash_omissions[].remaining_budget`,
      rule: notCompared(
        'how much hashing budget was left depends on the order files were met; the digest is null either way',
      ),
    },
    {
      path: `${prefix}.hash_omissions[].reason`,
      rule: notCompared('why a digest is missing: the missing digest itself makes the entry unknown'),
    },
    {
      path: `${prefix}.hash_omissions[].system_code`,
      rule: notCompared(
        'the operating-system error behind a missing digest; the missing digest makes the entry unknown',
      ),
    },
    {
      path: `${prefix}.roots[].alias`,
      rule: derived('the contract’s filesystem_observation_paths (root_N for the Nth)'),
    },
    {
      path: `${prefix}.roots[].exhausted`,
      rule: compared('filesystem', 'a root not enumerated to the end makes the dimension unknown'),
    },
    {
      path: `${prefix}.truncated`,
      rule: derived('its roots, hash omissions and enumeration failures'),
    },
  ]
}

/** The rule of every Evidence field, in schema order. `docs/comparison.md` shows the same table. */
export const FIELD_RULES: readonly FieldRuleEntry[] = [
  { path: 'format', rule: derived('the Evidence format this REA reads') },
  { path: 'format_version', rule: derived('the format version this REA reads; another version is rejected') },
  {
    path: 'rea_version',
    rule: notCompared('which REA release wrote the file; format_version governs what it means'),
  },
  { path: 'captured_at', rule: notCompared('wall-clock time, for people') },
  { path: 'host.*', rule: HOST },
  { path: 'commitments.scenario.sha256', rule: derived('commitments.scenario.value') },
  {
    path: 'commitments.scenario.value.*',
    rule: derived(
      'the comparison contract, the executable commitment and host.capture_root (the scenario as it ran)',
    ),
  },
  { path: 'commitments.executable.sha256', rule: derived('commitments.executable.value') },
  {
    path: 'commitments.executable.value.*',
    rule: notCompared(
      'the executable and its arguments may differ between an authority and a reconstruction',
    ),
  },
  { path: 'commitments.comparison_contract.sha256', rule: derived('commitments.comparison_contract.value') },
  { path: 'commitments.comparison_contract.value.*', rule: IN_CONTRACT },
  { path: 'commitments.normalization.sha256', rule: derived('commitments.normalization.value') },
  { path: 'commitments.normalization.value.*', rule: derived('the comparison contract’s normalization') },
  {
    path: 'disposition',
    rule: derived('exit.reason (cancelled during finalization keeps the deadline as exit.reason)'),
  },
  {
    path: 'failure',
    rule: notCompared(
      'REA’s own error text; a failed capture makes every dimension that describes how the run ended unknown',
    ),
  },
  {
    path: 'coverage.*',
    rule: notCompared(
      'coverage is observation of the program, not its behaviour: a capture made with coverage and one made without must compare (which coverage variables were set, and how many files were written)',
    ),
  },
  {
    path: 'duration_ms',
    rule: notCompared('the capture’s wall-clock length, including REA’s own snapshots and cleanup'),
  },

  { path: 'terminal.chunks[].sequence', rule: JOURNAL },
  { path: 'terminal.chunks[].at_ms', rule: ARRIVAL },
  {
    path: 'terminal.chunks[].data',
    rule: compared('terminal', 'the concatenated normalized stream, never chunk boundaries'),
  },
  {
    path: 'terminal.chunks[].raw_data',
    rule: derived(
      'data, which must be its normalization under the contract (kept only when that changed the chunk); under stream rules (placeholders, redactions, filters) only that it differs from data, since the values placeholders resolved to are not recorded',
    ),
  },
  {
    path: 'terminal.chunks[].byte_length',
    rule: derived('raw_data ?? data (its UTF-8 length), or bytes_base64 (its decoded length)'),
  },
  {
    path: 'terminal.chunks[].bytes_base64',
    rule: derived(
      'byte_length and raw_data ?? data (that many bytes of invalid UTF-8 that read as that text)',
    ),
  },
  { path: 'terminal.omitted_chunks[].sequence', rule: JOURNAL },
  { path: 'terminal.omitted_chunks[].at_ms', rule: ARRIVAL },
  { path: 'terminal.omitted_chunks[].last_at_ms', rule: ARRIVAL },
  {
    path: 'terminal.omitted_chunks[].count',
    rule: derived('truncation_details.raw_terminal.omitted_chunks (their sum)'),
  },
  {
    path: 'terminal.omitted_chunks[].bytes',
    rule: derived('truncation_details.raw_terminal.omitted_bytes (their sum)'),
  },
  { path: 'terminal.frames[].sequence', rule: JOURNAL },
  { path: 'terminal.frames[].at_ms', rule: ARRIVAL },
  {
    path: 'terminal.frames[].trigger',
    rule: compared('terminal', 'checkpoint frames are paired in order and must be taken at the same point'),
  },
  {
    path: 'terminal.frames[].checkpoint',
    rule: derived('trigger (every trigger but quiet is a checkpoint)'),
  },
  {
    path: 'terminal.frames[].event_index',
    rule: compared('terminal', 'checkpoint frames must be taken at the same event'),
  },
  {
    path: 'terminal.frames[].status',
    rule: compared('terminal', 'an omitted checkpoint frame makes the dimension unknown'),
    except: QUIET_FRAME,
  },
  {
    path: 'terminal.frames[].reason',
    rule: derived('truncation_details.rendered_terminal (the omitted-frame count per reason)'),
  },
  ...(
    [
      'columns',
      'rows',
      'cursor.row',
      'cursor.column',
      'cursor.visible',
      'lines[]',
      'serialized_state',
    ] as const
  ).map((field): FieldRuleEntry => ({
    path: `terminal.frames[].${field}`,
    rule: compared('terminal', 'checkpoint frames, cell by cell, cursor and attributes'),
    except: QUIET_FRAME,
  })),
  {
    path: 'terminal.redaction.version',
    rule: derived(
      'the contract’s normalization.sensitive_redaction_version (null redaction when that is null)',
    ),
  },
  {
    path: 'terminal.redaction.masked_count',
    rule: compared('terminal', 'how often a sensitive value was masked'),
  },
  {
    path: 'terminal.redaction.locations[].*',
    rule: compared('terminal', 'where a sensitive value appeared in the output, in order'),
  },
  {
    path: 'terminal.stream_normalization.*',
    rule: notCompared(
      'what the stream rules did on this machine (which placeholders resolved, how often each rule replaced text); the comparison text they produced is compared, and limit_releases makes the terminal unknown',
    ),
  },
  { path: 'terminal.replies[].sequence', rule: JOURNAL },
  { path: 'terminal.replies[].at_ms', rule: ARRIVAL },
  {
    path: 'terminal.replies[].query',
    rule: compared('terminal', 'what the program asked its terminal, in order'),
  },
  {
    path: 'terminal.replies[].reply',
    rule: compared('terminal', 'what REA answered (a cursor position reflects the screen the program drew)'),
  },
  { path: 'terminal.replies[].byte_length', rule: derived('reply (its UTF-8 length)') },
  {
    path: 'terminal.redaction.locations_truncated',
    rule: derived('masked_count and locations (set exactly when there are more masks than locations)'),
  },

  { path: 'interactions[].sequence', rule: JOURNAL },
  {
    path: 'interactions[].at_ms',
    rule: compared(
      'interaction',
      'dispatch time under the timing policy; for an event that waits (after), under the strict policy only',
    ),
    except: {
      condition: 'undispatched_interaction',
      rule: notCompared(
        'for an event that was not dispatched it is only when REA noticed; the outcome is compared',
      ),
    },
  },
  { path: 'interactions[].event_index', rule: compared('interaction', 'records are paired by event') },
  { path: 'interactions[].type', rule: derived('the contract’s event at event_index (its type)') },
  {
    path: 'interactions[].scheduled_at_ms',
    rule: derived('the contract’s event at event_index (its at_ms)'),
  },
  { path: 'interactions[].outcome', rule: compared('interaction', 'dispatched, skipped or failed') },
  {
    path: 'interactions[].reason',
    rule: compared('interaction', 'why an event failed'),
    except: {
      condition: 'skipped_interaction',
      rule: notCompared(
        'for a skipped event only its cause is compared (interactions[].cause); the wording says only when REA noticed',
      ),
    },
  },
  {
    path: 'interactions[].cause',
    rule: compared(
      'interaction',
      'who ended a skipped event’s chance: its wait, a deadline, cancellation, REA’s failure or the target’s exit (derived from the reason and exit.reason for Evidence without it)',
    ),
  },
  {
    path: 'interactions[].wait.met_at_ms',
    rule: compared(
      'interaction',
      'when the condition was met, under the strict timing policy only: it is the program’s speed, not the scenario',
    ),
  },
  {
    path: 'interactions[].wait.settle',
    rule: notCompared(
      'whether the output went quiet before the settle limit is the program’s timing; the checkpoint frame shows what it had drawn',
    ),
  },
  {
    path: 'interactions[].wait.detail',
    rule: notCompared(
      'explains a wait that ended without its condition; the outcome and reason are compared',
    ),
  },
  {
    path: 'interactions[].bytes_sent',
    rule: compared(
      'interaction',
      'the bytes keys were encoded to (they depend on the terminal’s cursor-key mode)',
    ),
  },
  {
    path: 'interactions[].keys_written',
    rule: notCompared(
      'whether the later keys of an event went in before the run ended depends on timing; bytes_sent is compared',
    ),
  },
  {
    path: 'interactions[].exchange.*',
    rule: notCompared(
      'how long input waited for the program to read REA’s replies depends on scheduling; the replies themselves are compared in the terminal dimension',
    ),
  },
  {
    path: 'interactions[].delivery',
    rule: compared('interaction', 'what became of an identity-checked signal'),
  },

  { path: 'exit.sequence', rule: JOURNAL },
  { path: 'exit.at_ms', rule: compared('exit', 'exit time under the timing policy') },
  { path: 'exit.code', rule: compared('exit', 'exit status') },
  { path: 'exit.signal', rule: compared('exit', 'the signal that ended the root') },
  { path: 'exit.reason', rule: compared('exit', 'why the run ended') },
  { path: 'exit.finalization.requested_ms', rule: derived('the contract’s finalization_ms') },
  {
    path: 'exit.finalization.elapsed_ms',
    rule: compared('exit', 'when the exit was observed, under the timing policy'),
  },
  { path: 'exit.finalization.exit_code', rule: compared('exit', 'the code of an exit during finalization') },
  { path: 'exit.finalization.signals[].sequence', rule: JOURNAL },
  {
    path: 'exit.finalization.signals[].at_ms',
    rule: notCompared('the journal time of the attempt; sent_at_ms is the compared time'),
  },
  { path: 'exit.finalization.signals[].signal', rule: compared('exit', 'SIGTERM, then at most one SIGKILL') },
  {
    path: 'exit.finalization.signals[].sent_at_ms',
    rule: compared('exit', 'attempt time under the timing policy'),
  },
  { path: 'exit.finalization.signals[].delivery', rule: compared('exit', 'what became of the signal') },
  {
    path: 'exit.finalization.signals[].reason',
    rule: notCompared(
      'why a delivery is unverified names host details (errors, pids); the delivery is compared',
    ),
  },

  { path: 'process.root.pid', rule: notCompared('process ids differ between any two runs') },
  { path: 'process.root.start_ticks', rule: notCompared('a host clock reading') },
  { path: 'process.root.boot_id', rule: notCompared('identifies the host’s boot') },
  {
    path: 'process.root.binding',
    rule: notCompared(
      'shown for information: a short root may exit before its token is visible, by luck of timing',
    ),
  },
  {
    path: 'process.root.binding_reason',
    rule: notCompared('explains binding, which is shown for information'),
  },
  { path: 'process.samples[].sequence', rule: JOURNAL },
  {
    path: 'process.samples[].at_ms',
    rule: notCompared(
      'sampling sees processes by luck of timing; settlement and cleanup decide the dimension',
    ),
  },
  {
    path: 'process.samples[].processes[].*',
    rule: notCompared(
      'sampling sees processes by luck of timing; settlement and cleanup decide the dimension',
    ),
  },
  { path: 'process.coverage', rule: derived('the schema (always sampled)') },
  {
    path: 'settlement.status',
    rule: compared('process', 'quiesced, cleanup needed, or unverifiable (unknown)'),
  },
  { path: 'settlement.elapsed_ms', rule: compared('process', 'settling time under the timing policy') },
  {
    path: 'settlement.reason',
    rule: notCompared('explains an unverifiable settlement, which makes the dimension unknown; names pids'),
  },
  {
    path: 'cleanup.owned_processes',
    rule: compared('process', 'whether REA had to clean up, and whether it could'),
  },
  {
    path: 'cleanup.killed[].pid',
    rule: notCompared('process ids differ between any two runs'),
  },
  { path: 'cleanup.killed[].start_ticks', rule: notCompared('a host clock reading') },
  {
    path: 'cleanup.killed[].command',
    rule: notCompared('shown for information: the executable may differ by contract'),
  },
  {
    path: 'cleanup.killed[].attribution',
    rule: notCompared('which ownership rule found the process; cleanup.owned_processes is compared'),
  },
  {
    path: 'cleanup.killed[].delivery',
    rule: derived('confirmed_gone (gone or identity-changed is confirmed, unverified is not)'),
  },
  {
    path: 'cleanup.killed[].reason',
    rule: notCompared('why a kill was unverified names host details; the cleanup outcome is compared'),
  },
  {
    path: 'cleanup.killed[].confirmed_gone',
    rule: derived('cleanup.owned_processes (completed needs every killed process confirmed gone)'),
  },
  {
    path: 'cleanup.unverified_processes[].pid',
    rule: derived('residual_unknowns (each one is also a process residual unknown naming the pid)'),
  },
  { path: 'cleanup.unverified_processes[].start_ticks', rule: notCompared('a host clock reading') },
  {
    path: 'cleanup.unverified_processes[].reason',
    rule: derived('the process residual unknown for the same pid, which names it'),
  },
  {
    path: 'cleanup.unverified_processes[].related',
    rule: derived('the residual unknown for the same pid (related_ or unrelated_process_unverified)'),
  },
  { path: 'cleanup.renderer', rule: notCompared('REA’s own renderer, not the program') },
  { path: 'cleanup.temporary_root', rule: notCompared('REA’s own temporary folder, not the program') },
  { path: 'cleanup.elapsed_ms', rule: notCompared('how long REA’s own cleanup took') },

  ...fileEntryRules('files_before', 'before_launch'),
  ...fileEntryRules('files_after', 'after_settlement'),
  {
    path: 'filesystem.status',
    rule: derived('the contract’s filesystem_observation_paths (observed exactly when there are some)'),
  },
  {
    path: 'filesystem.roots[].alias',
    rule: derived('the contract’s filesystem_observation_paths (root_N for the Nth)'),
  },
  { path: 'filesystem.roots[].path', rule: derived('the contract’s filesystem_observation_paths') },
  { path: 'filesystem.roots[].before', rule: compared('filesystem', 'what each root was before launch') },
  { path: 'filesystem.roots[].after', rule: compared('filesystem', 'what each root was after settlement') },
  { path: 'filesystem.checkpoints[].sequence', rule: JOURNAL },
  { path: 'filesystem.checkpoints[].at_ms', rule: ARRIVAL },
  {
    path: 'filesystem.checkpoints[].name',
    rule: compared('filesystem', 'a missing checkpoint makes the dimension unknown'),
  },
  {
    path: 'filesystem.effects[].*',
    rule: derived(
      'normalized_result.files_before and files_after with the roots’ exhaustion (recomputed; then compared path by path)',
    ),
  },

  { path: 'truncation_details.raw_terminal.budget_bytes', rule: derived('limits.output_bytes') },
  {
    path: 'truncation_details.raw_terminal.observed_bytes',
    rule: derived('retained_bytes + omitted_bytes'),
  },
  {
    path: 'truncation_details.raw_terminal.retained_bytes',
    rule: derived(
      'terminal.chunks (the sum of their byte_length; captures from before retained + omitted = observed also counted the base64 copies of invalid UTF-8, which is accepted)',
    ),
  },
  {
    path: 'truncation_details.raw_terminal.observed_chunks',
    rule: derived('retained_chunks + omitted_chunks'),
  },
  {
    path: 'truncation_details.raw_terminal.retained_chunks',
    rule: derived('terminal.chunks (their number)'),
  },
  {
    path: 'truncation_details.raw_terminal.omitted_chunks',
    rule: derived('terminal.omitted_chunks (the sum of their counts)'),
  },
  {
    path: 'truncation_details.raw_terminal.omitted_bytes',
    rule: derived('terminal.omitted_chunks (the sum of their bytes)'),
  },
  {
    path: 'truncation_details.raw_terminal.drain',
    rule: compared('terminal', 'an incomplete drain makes the stream incomplete, so the dimension unknown'),
  },
  { path: 'truncation_details.raw_terminal.truncated', rule: derived('omitted_chunks and drain') },
  { path: 'truncation_details.rendered_terminal.budget_bytes', rule: derived('limits.rendered_bytes') },
  {
    path: 'truncation_details.rendered_terminal.retained_bytes',
    rule: derived('terminal.frames (the UTF-8 bytes of the retained frames’ serialized_state and lines)'),
  },
  {
    path: 'truncation_details.rendered_terminal.observed_frames',
    rule: derived('terminal.frames (their number)'),
  },
  {
    path: 'truncation_details.rendered_terminal.retained_frames',
    rule: derived('terminal.frames (those retained)'),
  },
  {
    path: 'truncation_details.rendered_terminal.omitted_for_budget',
    rule: derived('terminal.frames (those omitted for rendered_bytes_budget)'),
  },
  {
    path: 'truncation_details.rendered_terminal.omitted_for_raw_gap',
    rule: derived('terminal.frames (those omitted for raw_terminal_gap)'),
  },
  { path: 'truncation_details.rendered_terminal.truncated', rule: derived('the omitted-frame counts') },
  ...accountingRules('filesystem_before'),
  ...accountingRules('filesystem_after'),
  { path: 'truncation_details.process.sample_limit', rule: derived('limits.process_samples') },
  { path: 'truncation_details.process.samples_retained', rule: derived('process.samples (their number)') },
  {
    path: 'truncation_details.process.limit_reached',
    rule: derived('samples_retained and sample_limit (set only when the limit was reached)'),
  },
  {
    path: 'truncation_details.process.partial',
    rule: derived(
      'limit_reached and cleanup.owned_processes (partial exactly when the limit was reached or processes could not be inspected)',
    ),
  },
  { path: 'truncation_details.process.coverage', rule: derived('the schema (always sampled)') },
  { path: 'truncated', rule: derived('the truncation flags of every source') },
  {
    path: 'residual_unknowns[].*',
    rule: compared(
      'named',
      'each one makes its own dimension unknown, unless a difference there is proven; those REA derives from the accounting must be present',
    ),
  },
  {
    path: 'machine_values.*',
    rule: notCompared(
      'says that a stored authority holds the values of its placeholders as tokens (checked on import against its placeholders and capture root); a comparison gives the other side the same tokens where it compares paths, so the verdict is the one the capture had',
    ),
  },
  {
    path: 'journal.complete',
    rule: derived('journal.incomplete_reasons (complete exactly when it is empty)'),
  },
  { path: 'journal.next_sequence', rule: JOURNAL },
  {
    path: 'journal.incomplete_reasons[]',
    rule: compared(
      'named',
      'those REA derives from the accounting must be present; any other reason makes every dimension read from the journal (terminal, interaction, exit) unknown',
    ),
  },
  {
    path: 'identity_digest',
    rule: derived('everything else in the document (its SHA-256 over canonical JSON)'),
  },
]
