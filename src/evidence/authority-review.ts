import type { Evidence, TerminalFrame } from './schema.js'
import { screenStyles } from './screen-styles.js'

/** The layouts of the review section REA reads: 1 (screens as text) and 2 (with their styles), the one it writes. */
export type AuthorityLayout = 1 | 2

/** Output lines shown in the review; the rest is counted. The Evidence below always holds everything. */
const REVIEW_OUTPUT_LINES = 2000

/**
 * What a reviewer reads in an authority file: what is compared, in words and text lines, and nothing that
 * changes from run to run (no times, sequence numbers, process ids). Derived from the Evidence, so a file whose
 * review was edited is caught on load.
 */
export interface AuthorityReview {
  readonly command: string
  readonly screens: readonly ReviewScreen[]
  readonly output: readonly string[]
  readonly interactions: readonly string[]
  readonly exit: string
  readonly files: readonly string[]
  readonly unknowns: readonly string[]
}

/**
 * A checkpoint screen: its rows as text (blank rows at the end left out) and, from layout 2 on, how its styled rows
 * look (`rowStyleNotation`, one entry per styled row, absent when no row is styled).
 */
export interface ReviewScreen {
  readonly at: string
  readonly lines: readonly string[]
  readonly styles?: readonly string[]
}

/**
 * The review section of an authority holding this Evidence, as the given layout derives it: layout 1 (the first
 * review layout, kept so that its files stay readable) shows screens as text only; layout 2 adds their styles.
 */
export function authorityReview(evidence: Evidence, layout: AuthorityLayout): AuthorityReview {
  const { executable, arguments: args } = evidence.commitments.executable.value
  const events = evidence.commitments.comparison_contract.value.events
  const terminal = evidence.commitments.comparison_contract.value.terminal
  return {
    command: [executable, ...args]
      .map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word)))
      .join(' '),
    screens: evidence.terminal.frames.flatMap((frame) =>
      frame.status === 'retained' && frame.checkpoint
        ? [
            {
              at: checkpointName(frame, events),
              lines: withoutTrailingBlanks(frame.lines),
              ...(layout === 1 ? {} : stylesOf(frame, terminal)),
            },
          ]
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

export function checkpointName(
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

function stylesOf(
  frame: Extract<TerminalFrame, { status: 'retained' }>,
  terminal: Evidence['commitments']['comparison_contract']['value']['terminal'],
): { styles?: string[] } {
  const styles = screenStyles(frame, terminal)
  return styles.length === 0 ? {} : { styles }
}
