import { isUtf8 } from 'node:buffer'
import { createChunkNormalizer } from '../../normalize/normalize-chunk.js'
import { hasStreamRules } from '../../normalize/stream-rule-set.js'
import { queryKind } from '../query-kind.js'
import type { Evidence, TerminalChunk, TerminalFrame } from '../schema.js'
import type { DerivedFacts } from './facts.js'

/** Retaining a chunk that is not valid UTF-8 also costs the budget its base64 copy. */
const base64Length = (bytes: number): number => 4 * Math.ceil(bytes / 3)

/**
 * Each chunk's comparison text is its original text normalized under the contract, and its byte length is
 * that of its original bytes; the raw accounting adds up over the chunks and the omitted runs.
 */
export function checkChunks(evidence: Evidence, facts: DerivedFacts): void {
  const { normalization } = evidence.commitments.comparison_contract.value
  const normalize = createChunkNormalizer({ patterns: normalization.patterns, ports: normalization.ports })
  // Stream rules are not recomputed: placeholders' values are not recorded, and held text may have been
  // released early at a quiet moment. The identity digest still covers every chunk's text.
  const streamRules = hasStreamRules(normalization)
  facts.expect(
    streamRules === (evidence.terminal.stream_normalization !== undefined),
    'terminal.stream_normalization',
    'the contract’s normalization.placeholders, redactions and filters',
    () =>
      streamRules
        ? 'is missing although the contract names stream rules'
        : 'is present although the contract names no stream rule',
  )
  let chargedBytes = 0
  let chunkBytes = 0
  // A stored authority holds machine values as tokens in its raw text: byte_length stays what the program wrote.
  const storedAsTokens = evidence.machine_values !== undefined
  evidence.terminal.chunks.forEach((chunk, index) => {
    checkChunk(chunk, `terminal.chunks[${index}]`, facts, streamRules ? undefined : normalize, storedAsTokens)
    chunkBytes += chunk.byte_length
    chargedBytes +=
      chunk.byte_length + (chunk.bytes_base64 === undefined ? 0 : base64Length(chunk.byte_length))
  })
  checkRawAccounting(evidence, facts, { chunkBytes, chargedBytes })
}

/**
 * One chunk: its comparison text is the normalization of its original text (unless stream rules, which are not
 * recomputed, made it), raw_data is kept only when that changed something, and byte_length is that of the
 * original bytes (the exact bytes, when they are not valid UTF-8).
 */
function checkChunk(
  chunk: TerminalChunk,
  at: string,
  facts: DerivedFacts,
  normalize: ((text: string) => string) | undefined,
  storedAsTokens: boolean,
): void {
  const original = chunk.raw_data ?? chunk.data
  facts.expect(
    normalize === undefined || normalize(original) === chunk.data,
    `${at}.data`,
    `${at}.${chunk.raw_data === undefined ? 'data itself (no raw_data: normalization changed nothing)' : 'raw_data'}`,
    () => 'it is not the normalization of the original text under the contract',
  )
  facts.expect(
    chunk.raw_data !== chunk.data,
    `${at}.raw_data`,
    `${at}.data`,
    () => 'raw_data is kept only when normalization changed the chunk',
  )
  if (chunk.bytes_base64 === undefined) {
    facts.expect(
      storedAsTokens || Buffer.byteLength(original) === chunk.byte_length,
      `${at}.byte_length`,
      `${at}.${chunk.raw_data === undefined ? 'data' : 'raw_data'}`,
      () =>
        `the original text is ${Buffer.byteLength(original)} bytes, byte_length says ${chunk.byte_length}`,
    )
  } else {
    const bytes = Buffer.from(chunk.bytes_base64, 'base64')
    facts.expect(
      (storedAsTokens || bytes.length === chunk.byte_length) &&
        !isUtf8(bytes) &&
        bytes.toString('utf8') === original,
      `${at}.bytes_base64`,
      `${at}.byte_length and ${at}.${chunk.raw_data === undefined ? 'data' : 'raw_data'}`,
      () => 'the exact bytes must be byte_length bytes of invalid UTF-8 that decode to the original text',
    )
  }
}

/** Bytes the retained chunks hold: as originally written, and as charged to limits.output_bytes. */
interface ChunkTotals {
  readonly chunkBytes: number
  readonly chargedBytes: number
}

/** The raw terminal accounting adds up over the retained chunks and the omitted runs. */
function checkRawAccounting(evidence: Evidence, facts: DerivedFacts, totals: ChunkTotals): void {
  const { limits } = evidence.commitments.comparison_contract.value
  const { chunkBytes, chargedBytes } = totals
  const raw = evidence.truncation_details.raw_terminal
  const path = 'truncation_details.raw_terminal'
  facts.expect(
    raw.budget_bytes === limits.output_bytes,
    `${path}.budget_bytes`,
    'the contract’s limits.output_bytes',
    () => `${raw.budget_bytes} against ${limits.output_bytes}`,
  )
  // retained_bytes counts original bytes, so that retained + omitted = observed. Captures made before that rule
  // counted the base64 copies too, as the budget does; both are read from the chunks, so either is accepted.
  facts.expect(
    raw.retained_bytes === chunkBytes || raw.retained_bytes === chargedBytes,
    `${path}.retained_bytes`,
    'terminal.chunks',
    () => `is ${raw.retained_bytes} but the retained chunks hold ${chunkBytes} bytes`,
  )
  facts.expect(
    raw.observed_bytes === chunkBytes + raw.omitted_bytes,
    `${path}.observed_bytes`,
    'terminal.chunks and omitted_bytes',
    () =>
      `is ${raw.observed_bytes} but the retained chunks hold ${chunkBytes} bytes and ${raw.omitted_bytes} were omitted`,
  )
  facts.expect(
    raw.retained_chunks === evidence.terminal.chunks.length,
    `${path}.retained_chunks`,
    'terminal.chunks',
    () => `is ${raw.retained_chunks} but terminal.chunks holds ${evidence.terminal.chunks.length}`,
  )
  const runs = evidence.terminal.omitted_chunks
  const omittedCount = runs.reduce((sum, run) => sum + run.count, 0)
  const omittedBytes = runs.reduce((sum, run) => sum + run.bytes, 0)
  facts.expect(
    raw.omitted_chunks === omittedCount,
    `${path}.omitted_chunks`,
    'terminal.omitted_chunks',
    () => `is ${raw.omitted_chunks} but terminal.omitted_chunks accounts for ${omittedCount}`,
  )
  facts.expect(
    raw.omitted_bytes === omittedBytes,
    `${path}.omitted_bytes`,
    'terminal.omitted_chunks',
    () => `is ${raw.omitted_bytes} but terminal.omitted_chunks accounts for ${omittedBytes}`,
  )
  facts.expect(
    raw.observed_chunks === raw.retained_chunks + raw.omitted_chunks,
    `${path}.observed_chunks`,
    `${path}.retained_chunks and omitted_chunks`,
    () => `is ${raw.observed_chunks}, not ${raw.retained_chunks} + ${raw.omitted_chunks}`,
  )
  facts.expect(
    raw.truncated === (raw.omitted_chunks > 0 || raw.drain === 'incomplete'),
    `${path}.truncated`,
    `${path}.omitted_chunks and drain`,
    () => `is ${raw.truncated} but ${raw.omitted_chunks} chunks were omitted and the drain was ${raw.drain}`,
  )
  runs.forEach((run, index) =>
    facts.expect(
      run.last_at_ms >= run.at_ms,
      `terminal.omitted_chunks[${index}].last_at_ms`,
      `terminal.omitted_chunks[${index}].at_ms`,
      () => 'a run cannot end before it starts',
    ),
  )
}

/** The bytes a retained frame draws from limits.rendered_bytes: its serialized state and visible lines. */
function frameBytes(frame: Extract<TerminalFrame, { status: 'retained' }>): number {
  let bytes = Buffer.byteLength(frame.serialized_state)
  for (const line of frame.lines) {
    bytes += Buffer.byteLength(line)
  }
  return bytes
}

const CHECKPOINT_TRIGGERS: ReadonlySet<string> = new Set(['before_event', 'after_resize', 'final'])
const EVENT_TRIGGERS: ReadonlySet<string> = new Set(['before_event', 'after_resize'])

/**
 * Frames agree with their trigger, the scenario's events and the rendered accounting. Frames of the named width
 * model record the cursor's visibility; frames under the legacy one keep the form captures had before.
 */
export function checkFrames(evidence: Evidence, facts: DerivedFacts): void {
  const { events, limits, terminal } = evidence.commitments.comparison_contract.value
  const recordsVisibility = terminal.width_model !== undefined
  let retainedBytes = 0
  let retained = 0
  const omitted = { rendered_bytes_budget: 0, raw_terminal_gap: 0 }
  evidence.terminal.frames.forEach((frame, index) => {
    const at = `terminal.frames[${index}]`
    facts.expect(
      frame.checkpoint === CHECKPOINT_TRIGGERS.has(frame.trigger),
      `${at}.checkpoint`,
      `${at}.trigger`,
      () => `a ${frame.trigger} frame ${frame.checkpoint ? 'is not' : 'is'} a checkpoint`,
    )
    const event = frame.event_index === null ? undefined : events[frame.event_index]
    facts.expect(
      EVENT_TRIGGERS.has(frame.trigger)
        ? event !== undefined && (frame.trigger === 'before_event' || event.type === 'resize')
        : frame.event_index === null,
      `${at}.event_index`,
      `${at}.trigger and the contract’s events`,
      () => `a ${frame.trigger} frame cannot name event ${String(frame.event_index)}`,
    )
    if (frame.status === 'omitted') {
      omitted[frame.reason]++
      return
    }
    retained++
    retainedBytes += frameBytes(frame)
    facts.expect(
      frame.lines.length === frame.rows,
      `${at}.lines`,
      `${at}.rows`,
      () => `holds ${frame.lines.length} rows of a ${frame.rows}-row screen`,
    )
    facts.expect(
      (frame.cursor.visible !== undefined) === recordsVisibility,
      `${at}.cursor.visible`,
      'the contract’s terminal.width_model',
      () =>
        recordsVisibility
          ? 'is missing: frames drawn under a named width model record whether the cursor was shown'
          : 'is present, but frames under the legacy width model do not record it',
    )
  })
  const rendered = evidence.truncation_details.rendered_terminal
  const path = 'truncation_details.rendered_terminal'
  facts.expect(
    rendered.budget_bytes === limits.rendered_bytes,
    `${path}.budget_bytes`,
    'the contract’s limits.rendered_bytes',
    () => `${rendered.budget_bytes} against ${limits.rendered_bytes}`,
  )
  facts.expect(
    rendered.observed_frames === evidence.terminal.frames.length,
    `${path}.observed_frames`,
    'terminal.frames',
    () => `is ${rendered.observed_frames} but terminal.frames holds ${evidence.terminal.frames.length}`,
  )
  facts.expect(
    rendered.retained_frames === retained,
    `${path}.retained_frames`,
    'terminal.frames',
    () => `is ${rendered.retained_frames} but ${retained} frames are retained`,
  )
  facts.expect(
    rendered.retained_bytes === retainedBytes,
    `${path}.retained_bytes`,
    'the retained frames',
    () => `is ${rendered.retained_bytes} but the retained frames hold ${retainedBytes} bytes`,
  )
  facts.expect(
    rendered.omitted_for_budget === omitted.rendered_bytes_budget,
    `${path}.omitted_for_budget`,
    'terminal.frames',
    () =>
      `is ${rendered.omitted_for_budget} but ${omitted.rendered_bytes_budget} frames were omitted for the budget`,
  )
  facts.expect(
    rendered.omitted_for_raw_gap === omitted.raw_terminal_gap,
    `${path}.omitted_for_raw_gap`,
    'terminal.frames',
    () =>
      `is ${rendered.omitted_for_raw_gap} but ${omitted.raw_terminal_gap} frames were omitted after a raw gap`,
  )
  facts.expect(
    rendered.truncated === (rendered.omitted_for_budget > 0 || rendered.omitted_for_raw_gap > 0),
    `${path}.truncated`,
    `${path}.omitted_for_budget and omitted_for_raw_gap`,
    () =>
      `is ${rendered.truncated} but ${rendered.omitted_for_budget + rendered.omitted_for_raw_gap} frames were omitted`,
  )
}

/** Masking happened exactly when the contract says sensitive values were searched for, at sensitive events. */
export function checkRedaction(evidence: Evidence, facts: DerivedFacts): void {
  const { normalization, events } = evidence.commitments.comparison_contract.value
  const redaction = evidence.terminal.redaction
  const version = normalization.sensitive_redaction_version
  facts.expect(
    (redaction?.version ?? null) === version,
    'terminal.redaction.version',
    'the contract’s normalization.sensitive_redaction_version',
    () => `${JSON.stringify(redaction?.version ?? null)} against ${JSON.stringify(version)}`,
  )
  if (redaction === null) {
    return
  }
  facts.expect(
    redaction.locations.length <= redaction.masked_count &&
      redaction.locations_truncated === redaction.masked_count > redaction.locations.length,
    'terminal.redaction.locations_truncated',
    'terminal.redaction.masked_count and locations',
    () =>
      `${redaction.locations.length} locations of ${redaction.masked_count} masks cannot be locations_truncated: ${redaction.locations_truncated}`,
  )
  redaction.locations.forEach((location, index) => {
    const event = events[location.event_index]
    facts.expect(
      event?.type === 'input' && event.sensitive,
      `terminal.redaction.locations[${index}].event_index`,
      'the contract’s events',
      () => `event ${location.event_index} is not a sensitive input`,
    )
  })
}

/** Replies are recorded exactly when the contract answered queries, each with its kind and its length. */
export function checkReplies(evidence: Evidence, facts: DerivedFacts): void {
  const answered = evidence.commitments.comparison_contract.value.terminal.answer_queries === true
  const replies = evidence.terminal.replies
  facts.expect(
    (replies !== undefined) === answered,
    'terminal.replies',
    'the contract’s terminal.answer_queries',
    () => `replies are recorded exactly when queries were answered (answer_queries ${String(answered)})`,
  )
  replies?.forEach((reply, index) => {
    facts.expect(
      reply.query === queryKind(reply.reply) && reply.byte_length === Buffer.byteLength(reply.reply),
      `terminal.replies[${index}].query`,
      `terminal.replies[${index}].reply`,
      () =>
        `the reply ${JSON.stringify(reply.reply)} is a ${queryKind(reply.reply)} of ${Buffer.byteLength(reply.reply)} bytes`,
    )
  })
}
