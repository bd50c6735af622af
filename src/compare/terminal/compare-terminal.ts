import type { Evidence, TerminalReply } from '../../evidence/schema.js'
import { widthModelOf } from '../../scenario/terminal-model.js'
import type { DimensionResult, TerminalLevel } from '../comparison-schema.js'
import { DimensionFindings } from '../findings.js'
import { compareCheckpoints, compareRecordedFrames } from './frames.js'
import { compareScreens } from './screens.js'
import { excerpt, firstMismatch, streamLocation, type TerminalStream } from './stream.js'

/**
 * The terminal dimension, at either level. `stream`: the concatenated normalized stream (chunk boundaries vary
 * between identical runs, so they never count) and the checkpoint frames as recorded. `screens`: what every
 * checkpoint screen shows, cell by cell; stream differences are notes. At both levels a difference inside what
 * both sides observed is proven even when a side is truncated, an incomplete stream or an omitted frame makes
 * the dimension unknown otherwise, and the queries REA answered and where sensitive input appeared are compared.
 */
export function compareTerminal(
  authority: Evidence,
  reconstruction: Evidence,
  streams: { readonly authority: TerminalStream; readonly reconstruction: TerminalStream },
  level: TerminalLevel = 'stream',
): DimensionResult {
  const findings = new DimensionFindings('terminal')
  compareStreams(streams.authority, streams.reconstruction, findings, level)
  const terminal = authority.commitments.comparison_contract.value.terminal
  compareCheckpoints(
    authority.terminal.frames,
    reconstruction.terminal.frames,
    findings,
    level === 'stream'
      ? compareRecordedFrames(findings)
      : compareScreens(findings, { widthModel: widthModelOf(terminal), scrollback: terminal.scrollback }),
  )
  compareRedaction(authority.terminal.redaction, reconstruction.terminal.redaction, findings, level)
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
 * a sensitive value appeared is compared too: a reconstruction that leaks what the authority hid differs. At the
 * screens level where in the stream it appeared depends on the drawing order, so only which inputs appeared,
 * and how often, is compared; a different place is a note.
 */
function compareRedaction(
  a: Redaction,
  b: Redaction,
  findings: DimensionFindings,
  level: TerminalLevel,
): void {
  const x = a?.locations ?? []
  const y = b?.locations ?? []
  const count = Math.max(x.length, y.length)
  for (let index = 0; index < count; index++) {
    const p = x[index]
    const q = y[index]
    const sameInput = p?.event_index === q?.event_index && p?.byte_length === q?.byte_length
    if (sameInput && p?.stream_byte_offset === q?.stream_byte_offset) {
      continue
    }
    if (sameInput && level === 'screens') {
      findings.note(
        `a sensitive input value of event ${p?.event_index} appeared at stream byte ${p?.stream_byte_offset} in the authority and ${q?.stream_byte_offset} in the reconstruction; at the screens level only which inputs appeared is compared`,
      )
      continue
    }
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

/**
 * The normalized streams, up to the first gap on either side. At the stream level a difference is a difference;
 * at the screens level it is a note, since a screen drawn in another order is the same screen. At both levels an
 * incomplete stream leaves the dimension unknown unless a difference is proven.
 */
function compareStreams(
  a: TerminalStream,
  b: TerminalStream,
  findings: DimensionFindings,
  level: TerminalLevel,
): void {
  const found = (summary: string, index: number): void => {
    const location = streamLocation(index, a, b)
    if (level === 'stream') {
      findings.differ('terminal.stream', summary, excerpt(a.text, index), excerpt(b.text, index), location)
    } else {
      findings.note(
        `${summary} at terminal byte ${location.byte_offset} (line ${location.line}, column ${location.column}); at the screens level only what the checkpoint screens show is compared`,
      )
    }
  }
  const mismatch = firstMismatch(a.text, b.text)
  if (mismatch !== -1) {
    found('the normalized terminal output differs', mismatch)
    if (level === 'stream') {
      return
    }
  }
  for (const [side, stream] of [
    ['authority', a],
    ['reconstruction', b],
  ] as const) {
    if (!stream.complete) {
      findings.unknown(
        'terminal_incomplete',
        mismatch === -1
          ? `the ${side}'s terminal stream is incomplete (${stream.incompleteReason}); the first ${stream.text.length} characters compare equal`
          : `the ${side}'s terminal stream is incomplete (${stream.incompleteReason})`,
      )
    }
  }
  if (mismatch !== -1 || a.text.length === b.text.length) {
    return
  }
  // One stream is a prefix of the other. That is a difference only when the shorter one is known to be whole.
  const shorter = a.text.length < b.text.length ? a : b
  if (shorter.complete) {
    found(
      `the ${shorter === a ? 'reconstruction' : 'authority'} wrote more terminal output`,
      shorter.text.length,
    )
  }
}
