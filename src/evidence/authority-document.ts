import { ReaError } from '../errors.js'
import { describeValue } from '../internal/zod-issues.js'
import type { Evidence, TerminalFrame } from './schema.js'

/** Authority files written since wave 3: the Evidence with a readable review section before it. */
export const AUTHORITY_FORMAT = 'rea.process-capture.authority'
export const AUTHORITY_FORMAT_VERSION = 1

/** Output lines shown in the review; the rest is counted. The Evidence below always holds everything. */
const REVIEW_OUTPUT_LINES = 2000

/**
 * What a reviewer reads in an authority file: what is compared, in words and text lines, and nothing that
 * changes from run to run (no times, sequence numbers, process ids). Derived from the Evidence, so a file whose
 * review was edited is caught on load.
 */
export interface AuthorityReview {
  readonly command: string
  readonly screens: readonly { readonly at: string; readonly lines: readonly string[] }[]
  readonly output: readonly string[]
  readonly interactions: readonly string[]
  readonly exit: string
  readonly files: readonly string[]
  readonly unknowns: readonly string[]
}

/** The review section of an authority holding this Evidence. */
export function authorityReview(evidence: Evidence): AuthorityReview {
  const { executable, arguments: args } = evidence.commitments.executable.value
  const events = evidence.commitments.comparison_contract.value.events
  return {
    command: [executable, ...args]
      .map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word)))
      .join(' '),
    screens: evidence.terminal.frames.flatMap((frame) =>
      frame.status === 'retained' && frame.checkpoint
        ? [{ at: checkpointName(frame, events), lines: withoutTrailingBlanks(frame.lines) }]
        : [],
    ),
    output: plainOutput(evidence),
    interactions: [...evidence.interactions]
      .sort((a, b) => a.event_index - b.event_index)
      .map((interaction) => {
        const event = events[interaction.event_index]
        const waited = event?.after === undefined ? '' : `, after ${JSON.stringify(event.after)}`
        const why =
          interaction.outcome === 'dispatched' ? '' : `: ${interaction.cause ?? interaction.reason ?? ''}`
        return `event ${interaction.event_index} (${interaction.type}${waited}): ${interaction.outcome}${why}`
      }),
    exit: describeExit(evidence.exit),
    files: evidence.filesystem.effects.map((effect) =>
      effect.status === 'unknown'
        ? `unknown ${effect.path} (${effect.reason})`
        : `${effect.status} ${effect.path}${digestOf(effect)}`,
    ),
    unknowns: evidence.residual_unknowns.map((unknown) => `${unknown.dimension}: ${unknown.reason}`),
  }
}

function checkpointName(
  frame: Extract<TerminalFrame, { status: 'retained' }>,
  events: readonly { type: string }[],
): string {
  switch (frame.trigger) {
    case 'before_event':
      return `before event ${frame.event_index ?? '?'} (${events[frame.event_index ?? -1]?.type ?? 'event'})`
    case 'after_resize':
      return `after event ${frame.event_index ?? '?'} (resize)`
    case 'final':
    case 'quiet':
      return frame.trigger
  }
}

function withoutTrailingBlanks(lines: readonly string[]): string[] {
  let end = lines.length
  while (end > 0 && lines[end - 1] === '') {
    end--
  }
  return lines.slice(0, end)
}

const CONTROL_SEQUENCE =
  // eslint-disable-next-line no-control-regex -- control sequences are what is removed
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[P^_][^\x1b]*\x1b\\|\x1b[ -/]*[0-~]|[\x00-\x08\x0b-\x1f\x7f]/g

/** The comparison text as plain lines: control sequences removed, a line rewritten with `\r` shown as it ends. */
function plainOutput(evidence: Evidence): string[] {
  const text = evidence.terminal.chunks.map((chunk) => chunk.data).join('')
  const lines = text.split('\n').map((line) => {
    const cleaned = line.replace(/\r+$/, '')
    const last = cleaned.lastIndexOf('\r')
    return (last === -1 ? cleaned : cleaned.slice(last + 1)).replace(CONTROL_SEQUENCE, '')
  })
  const kept = withoutTrailingBlanks(lines)
  return kept.length <= REVIEW_OUTPUT_LINES
    ? kept
    : [
        ...kept.slice(0, REVIEW_OUTPUT_LINES),
        `… ${kept.length - REVIEW_OUTPUT_LINES} more lines in the Evidence below`,
      ]
}

function describeExit(exit: Evidence['exit']): string {
  const how =
    exit.signal === null
      ? 'not observed'
      : exit.signal === 0
        ? `code ${exit.code ?? 'none'}`
        : `signal ${exit.signal}`
  const finalization =
    exit.finalization === undefined ? '' : `, finalization exit code ${exit.finalization.exit_code ?? 'none'}`
  return `${exit.reason}, ${how}${finalization}`
}

function digestOf(effect: Evidence['filesystem']['effects'][number]): string {
  const after = effect.after
  return after?.type === 'file' && after.sha256 !== null ? ` (sha256 ${after.sha256.slice(0, 12)})` : ''
}

/**
 * Evidence members, grouped into lines: what changes on every run (times, samples, the digest) shares few
 * lines, so re-recording a one-word change rewrites a handful of lines beside the review's.
 */
const EVIDENCE_LINES: readonly (readonly string[])[] = [
  ['format', 'format_version', 'rea_version', 'host'],
  ['commitments'],
  ['captured_at', 'duration_ms', 'disposition', 'failure'],
  ['terminal'],
  ['interactions', 'exit', 'settlement', 'cleanup'],
  ['process'],
  ['normalized_result', 'filesystem'],
  ['truncation_details', 'truncated', 'residual_unknowns', 'journal'],
  ['identity_digest'],
]

/**
 * An authority file: the review section, then the Evidence, a few members per line. Still JSON; the identity
 * digest stays the one over the Evidence's canonical JSON, whatever the layout.
 */
export function serializeAuthority(evidence: Evidence): string {
  const record = evidence as unknown as Record<string, unknown>
  const listed = new Set(EVIDENCE_LINES.flat())
  const groups = [
    ...EVIDENCE_LINES,
    Object.keys(record)
      .filter((key) => !listed.has(key))
      .sort(),
  ]
  const evidenceLines = groups
    .map((keys) => keys.filter((key) => record[key] !== undefined))
    .filter((keys) => keys.length > 0)
    .map(
      (keys) =>
        `    ${keys.map((key) => `${JSON.stringify(key)}: ${JSON.stringify(record[key])}`).join(', ')}`,
    )
  const review = JSON.stringify(authorityReview(evidence), null, 2).replaceAll('\n', '\n  ')
  return [
    '{',
    `  "format": ${JSON.stringify(AUTHORITY_FORMAT)},`,
    `  "format_version": ${AUTHORITY_FORMAT_VERSION},`,
    `  "review": ${review},`,
    '  "evidence": {',
    evidenceLines.join(',\n'),
    '  }',
    '}',
    '',
  ].join('\n')
}

/** Whether a parsed JSON document is an authority file rather than bare Evidence. */
export function isAuthorityDocument(document: unknown): document is Record<string, unknown> {
  return (
    typeof document === 'object' &&
    document !== null &&
    (document as Record<string, unknown>)['format'] === AUTHORITY_FORMAT
  )
}

/**
 * The Evidence of an authority file, with its review checked against it: a review edited by hand, or left
 * behind by any writer but REA, no longer says what the Evidence holds. `parse` validates the Evidence itself.
 */
export function evidenceOfAuthority(
  document: Record<string, unknown>,
  source: string,
  parse: (evidence: unknown, source: string) => Evidence,
): Evidence {
  if (document['format_version'] !== AUTHORITY_FORMAT_VERSION) {
    throw new ReaError(
      'UNSUPPORTED_EVIDENCE_VERSION',
      `${source} is an authority file of format version ${describeValue(document['format_version'])}; this REA reads version ${AUTHORITY_FORMAT_VERSION}. Re-record it with this REA (-u).`,
    )
  }
  const evidence = parse(document['evidence'], `${source} (its evidence)`)
  if (JSON.stringify(document['review']) !== JSON.stringify(authorityReview(evidence))) {
    throw new ReaError(
      'INVALID_EVIDENCE',
      `${source} was rejected on import: its "review" section does not say what its Evidence holds (it was edited by hand, or written by another tool). The review is derived from the Evidence: re-record the authority with -u.`,
    )
  }
  return evidence
}
