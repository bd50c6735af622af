import type { Evidence, TerminalFrame, TerminalReply } from '../evidence/schema.js'
import type { DimensionResult, Location } from './comparison-schema.js'
import { DimensionFindings } from './findings.js'
import { excerpt, firstMismatch, streamLocation, type TerminalStream } from './terminal-stream.js'

/**
 * The terminal dimension: the concatenated normalized stream (chunk boundaries vary between identical runs, so
 * they never count) and the checkpoint frames. A difference inside what both sides observed is proven even when
 * a side is truncated; past a side's first gap nothing is claimed.
 */
export function compareTerminal(
  authority: Evidence,
  reconstruction: Evidence,
  streams: { readonly authority: TerminalStream; readonly reconstruction: TerminalStream },
): DimensionResult {
  const findings = new DimensionFindings('terminal')
  compareStreams(streams.authority, streams.reconstruction, findings)
  compareFrames(authority.terminal.frames, reconstruction.terminal.frames, findings)
  compareRedaction(authority.terminal.redaction, reconstruction.terminal.redaction, findings)
  compareReplies(authority.terminal.replies ?? [], reconstruction.terminal.replies ?? [], findings)
  return findings.result()
}

/**
 * What the program asked its terminal and what REA answered, in order: a reconstruction that asks something
 * else, or is told another cursor position, behaved differently. When each was asked is not compared.
 */
function compareReplies(
  a: readonly TerminalReply[],
  b: readonly TerminalReply[],
  findings: DimensionFindings,
): void {
  const count = Math.max(a.length, b.length)
  for (let index = 0; index < count; index++) {
    const p = a[index]
    const q = b[index]
    if (p?.query !== q?.query || p?.reply !== q?.reply) {
      findings.differ(
        `terminal.replies[${index}]`,
        p === undefined || q === undefined
          ? `terminal query ${index + 1} was asked only in the ${p === undefined ? 'reconstruction' : 'authority'}`
          : `terminal query ${index + 1} was ${p.query === q.query ? 'answered differently' : 'a different query'}`,
        p === undefined ? null : { query: p.query, reply: p.reply },
        q === undefined ? null : { query: q.query, reply: q.reply },
        { kind: 'terminal_reply', index },
      )
      return
    }
  }
}

type Redaction = Evidence['terminal']['redaction']

/**
 * Masked text reads `****` on both sides whether the program echoed a secret or printed stars itself, so where
 * a sensitive value appeared is compared too: a reconstruction that leaks what the authority hid differs.
 */
function compareRedaction(a: Redaction, b: Redaction, findings: DimensionFindings): void {
  const x = a?.locations ?? []
  const y = b?.locations ?? []
  const count = Math.max(x.length, y.length)
  for (let index = 0; index < count; index++) {
    const p = x[index]
    const q = y[index]
    if (
      p?.event_index !== q?.event_index ||
      p?.stream_byte_offset !== q?.stream_byte_offset ||
      p?.byte_length !== q?.byte_length
    ) {
      findings.differ(
        'terminal.redaction',
        `a sensitive input value appeared in the output ${p === undefined ? 'only in the reconstruction' : q === undefined ? 'only in the authority' : 'at a different place'}`,
        p === undefined ? null : { ...p },
        q === undefined ? null : { ...q },
        {
          kind: 'terminal_redaction',
          event_index: (p ?? q)?.event_index ?? null,
          stream_byte_offset: (p ?? q)?.stream_byte_offset ?? null,
        },
      )
      return
    }
  }
  const m = a?.masked_count ?? 0
  const n = b?.masked_count ?? 0
  if (m !== n) {
    findings.differ(
      'terminal.redaction.masked_count',
      'a sensitive input value appeared in the output a different number of times',
      m,
      n,
      { kind: 'terminal_redaction', event_index: null, stream_byte_offset: null },
    )
  }
}

function compareStreams(a: TerminalStream, b: TerminalStream, findings: DimensionFindings): void {
  const mismatch = firstMismatch(a.text, b.text)
  if (mismatch !== -1) {
    findings.differ(
      'terminal.stream',
      'the normalized terminal output differs',
      excerpt(a.text, mismatch),
      excerpt(b.text, mismatch),
      streamLocation(mismatch, a, b),
    )
    return
  }
  for (const [side, stream] of [
    ['authority', a],
    ['reconstruction', b],
  ] as const) {
    if (!stream.complete) {
      findings.unknown(
        'terminal_incomplete',
        `the ${side}'s terminal stream is incomplete (${stream.incompleteReason}); the first ${stream.text.length} characters compare equal`,
      )
    }
  }
  if (a.text.length === b.text.length) {
    return
  }
  // One stream is a prefix of the other. That is a difference only when the shorter one is known to be whole.
  const shorter = a.text.length < b.text.length ? a : b
  if (shorter.complete) {
    const index = shorter.text.length
    findings.differ(
      'terminal.stream',
      `the ${shorter === a ? 'reconstruction' : 'authority'} wrote more terminal output`,
      excerpt(a.text, index),
      excerpt(b.text, index),
      streamLocation(index, a, b),
    )
  }
}

function checkpointFrames(frames: readonly TerminalFrame[]): { frame: TerminalFrame; index: number }[] {
  return frames.flatMap((frame, index) => (frame.checkpoint ? [{ frame, index }] : []))
}

function compareFrames(
  a: readonly TerminalFrame[],
  b: readonly TerminalFrame[],
  findings: DimensionFindings,
): void {
  const left = checkpointFrames(a)
  const right = checkpointFrames(b)
  const count = Math.max(left.length, right.length)
  for (let checkpoint = 0; checkpoint < count; checkpoint++) {
    const x = left[checkpoint]
    const y = right[checkpoint]
    const any = x?.frame ?? y?.frame
    if (any === undefined) {
      continue
    }
    const location = {
      kind: 'terminal_frame' as const,
      checkpoint,
      trigger: any.trigger,
      event_index: any.event_index,
      authority_frame_index: x?.index ?? null,
      reconstruction_frame_index: y?.index ?? null,
      row: null,
      column: null,
    }
    if (x === undefined || y === undefined) {
      findings.differ(
        'terminal.frames',
        `checkpoint frame ${checkpoint} (${describeTrigger(any)}) exists only in the ${x === undefined ? 'reconstruction' : 'authority'}`,
        x === undefined ? null : describeTrigger(x.frame),
        y === undefined ? null : describeTrigger(y.frame),
        location,
      )
      continue
    }
    if (x.frame.trigger !== y.frame.trigger || x.frame.event_index !== y.frame.event_index) {
      findings.differ(
        'terminal.frames',
        `checkpoint frame ${checkpoint} was taken at a different point`,
        describeTrigger(x.frame),
        describeTrigger(y.frame),
        location,
      )
      continue
    }
    compareFramePair(x.frame, y.frame, location, findings)
  }
}

function compareFramePair(
  x: TerminalFrame,
  y: TerminalFrame,
  location: Extract<Location, { kind: 'terminal_frame' }>,
  findings: DimensionFindings,
): void {
  if (x.status === 'omitted' || y.status === 'omitted') {
    const side = x.status === 'omitted' ? 'authority' : 'reconstruction'
    const reason = x.status === 'omitted' ? x.reason : y.status === 'omitted' ? y.reason : ''
    findings.unknown(
      'frame_omitted',
      `checkpoint frame ${location.checkpoint} (${describeTrigger(x)}) was not rendered on the ${side} side (${reason})`,
    )
    return
  }
  const label = `checkpoint frame ${location.checkpoint} (${describeTrigger(x)})`
  if (x.columns !== y.columns || x.rows !== y.rows) {
    findings.differ(
      'terminal.frames.size',
      `${label} has a different size`,
      `${x.columns}x${x.rows}`,
      `${y.columns}x${y.rows}`,
      location,
    )
    return
  }
  const rows = Math.max(x.lines.length, y.lines.length)
  for (let row = 0; row < rows; row++) {
    const p = x.lines[row] ?? ''
    const q = y.lines[row] ?? ''
    if (p !== q || (x.lines[row] === undefined) !== (y.lines[row] === undefined)) {
      const mismatch = firstMismatch(p, q)
      const index = mismatch === -1 ? Math.min(p.length, q.length) : mismatch
      findings.differ('terminal.frames.lines', `${label} differs at row ${row + 1}`, p, q, {
        ...location,
        row: row + 1,
        column: Array.from(p.slice(0, index)).length + 1,
      })
      return
    }
  }
  if (x.cursor.row !== y.cursor.row || x.cursor.column !== y.cursor.column) {
    findings.differ('terminal.frames.cursor', `${label} has the cursor elsewhere`, x.cursor, y.cursor, {
      ...location,
      row: x.cursor.row + 1,
      column: x.cursor.column + 1,
    })
    return
  }
  if (x.serialized_state !== y.serialized_state) {
    // Same characters, different attributes (colours, styles, modes): still a different screen.
    const mismatch = firstMismatch(x.serialized_state, y.serialized_state)
    const index = mismatch === -1 ? Math.min(x.serialized_state.length, y.serialized_state.length) : mismatch
    findings.differ(
      'terminal.frames.serialized_state',
      `${label} shows the same text with different attributes or modes`,
      excerpt(x.serialized_state, index),
      excerpt(y.serialized_state, index),
      location,
    )
  }
}

function describeTrigger(frame: TerminalFrame): string {
  return frame.event_index === null ? frame.trigger : `${frame.trigger} ${frame.event_index}`
}
