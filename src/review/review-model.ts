import { checkpointName } from '../evidence/authority-review.js'
import type { Evidence, TerminalFrame } from '../evidence/schema.js'
import { widthModelOf } from '../scenario/terminal-model.js'
import { replayScreen, type ScreenCells } from '../screen/screen-replay.js'
import type { PendingCapture } from './pending-capture.js'
import type { CheckpointPair } from './review-screen.js'

/** The checkpoint frames of both captures, paired by position, replayed into cells only when shown. */
export interface CheckpointFrames {
  readonly label: string
  readonly authority: Frame | null
  readonly pending: Frame | null
}

interface Frame {
  readonly frame: TerminalFrame
  readonly evidence: Evidence
}

export function checkpointFrames(capture: PendingCapture): CheckpointFrames[] {
  const authority = capture.current.state === 'present' ? capture.current.evidence : null
  const pending = capture.evidence
  const framesOf = (evidence: Evidence | null): Frame[] =>
    evidence === null
      ? []
      : evidence.terminal.frames.filter((frame) => frame.checkpoint).map((frame) => ({ frame, evidence }))
  const left = framesOf(authority)
  const right = framesOf(pending)
  return Array.from({ length: Math.max(left.length, right.length) }, (_, index) => {
    const a = left[index] ?? null
    const b = right[index] ?? null
    const named = b ?? a
    return {
      label: named === null ? '' : labelOf(named),
      authority: a,
      pending: b,
    }
  })
}

/** Where the review opens: the first checkpoint whose screens differ, else the last one. */
export function firstDifferentCheckpoint(pairs: readonly CheckpointFrames[]): number {
  const index = pairs.findIndex((pair) => stateOf(pair.authority) !== stateOf(pair.pending))
  return index === -1 ? Math.max(0, pairs.length - 1) : index
}

/** Both screens of a checkpoint as cells; a side without a retained frame there has none. */
export function replayPair(pair: CheckpointFrames): CheckpointPair {
  return { label: pair.label, authority: cellsOf(pair.authority), pending: cellsOf(pair.pending) }
}

function cellsOf(side: Frame | null): ScreenCells | null {
  if (side?.frame.status !== 'retained') {
    return null
  }
  const terminal = side.evidence.commitments.comparison_contract.value.terminal
  try {
    return replayScreen({
      columns: side.frame.columns,
      rows: side.frame.rows,
      scrollback: terminal.scrollback,
      state: side.frame.serialized_state,
      widthModel: widthModelOf(terminal),
    })
  } catch {
    // A frame the terminal model cannot redraw is shown as missing; its text is still in the review diff.
    return null
  }
}

function stateOf(side: Frame | null): string | null {
  return side?.frame.status === 'retained' ? side.frame.serialized_state : null
}

function labelOf(side: Frame): string {
  const frame = side.frame
  if (frame.status !== 'retained') {
    return `${frame.trigger} (not rendered: ${frame.reason})`
  }
  return checkpointName(frame, side.evidence.commitments.comparison_contract.value.events)
}
