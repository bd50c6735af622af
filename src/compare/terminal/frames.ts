import type { TerminalFrame } from '../../evidence/schema.js'
import type { Location } from '../comparison-schema.js'
import type { DimensionFindings } from '../findings.js'
import { excerpt, firstMismatch } from './stream.js'

export type RetainedFrame = Extract<TerminalFrame, { status: 'retained' }>
export type FrameLocation = Extract<Location, { kind: 'terminal_frame' }>

/** Compares one pair of retained checkpoint frames of the same size, taken at the same point. */
export type FramePairComparison = (
  x: RetainedFrame,
  y: RetainedFrame,
  location: FrameLocation,
  label: string,
) => void

/**
 * Pairs the checkpoint frames of both sides in order (quiet frames never count) and hands each pair taken at the
 * same point to `comparePair`. A frame on one side only, or taken at another point, is a difference; a frame a
 * side did not render makes the dimension unknown.
 */
export function compareCheckpoints(
  a: readonly TerminalFrame[],
  b: readonly TerminalFrame[],
  findings: DimensionFindings,
  comparePair: FramePairComparison,
): void {
  const left = checkpointFrames(a)
  const right = checkpointFrames(b)
  for (let checkpoint = 0; checkpoint < Math.max(left.length, right.length); checkpoint++) {
    const x = left[checkpoint]
    const y = right[checkpoint]
    const any = (x ?? y)?.frame
    if (any === undefined) {
      continue
    }
    const location: FrameLocation = {
      kind: 'terminal_frame',
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
    } else if (x.frame.trigger !== y.frame.trigger || x.frame.event_index !== y.frame.event_index) {
      findings.differ(
        'terminal.frames',
        `checkpoint frame ${checkpoint} was taken at a different point`,
        describeTrigger(x.frame),
        describeTrigger(y.frame),
        location,
      )
    } else if (x.frame.status === 'omitted' || y.frame.status === 'omitted') {
      const omitted = x.frame.status === 'omitted' ? x.frame : y.frame
      findings.unknown(
        'frame_omitted',
        `checkpoint frame ${checkpoint} (${describeTrigger(x.frame)}) was not rendered on the ${omitted === x.frame ? 'authority' : 'reconstruction'} side (${omitted.status === 'omitted' ? omitted.reason : ''})`,
      )
    } else {
      const label = `checkpoint frame ${checkpoint} (${describeTrigger(x.frame)})`
      // A screen of another size differs whatever it shows: no level compares its rows.
      if (x.frame.columns !== y.frame.columns || x.frame.rows !== y.frame.rows) {
        findings.differ(
          'terminal.frames.size',
          `${label} has a different size`,
          `${x.frame.columns}x${x.frame.rows}`,
          `${y.frame.columns}x${y.frame.rows}`,
          location,
        )
      } else {
        comparePair(x.frame, y.frame, location, label)
      }
    }
  }
}

/**
 * The stream level's frame comparison: the frame as recorded, row text first (where people look), then the
 * cursor, then the serialized state, which also holds colours, attributes, scrollback and modes.
 */
export function compareRecordedFrames(findings: DimensionFindings): FramePairComparison {
  return (x, y, location, label) => {
    for (let row = 0; row < Math.max(x.lines.length, y.lines.length); row++) {
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
    if (
      x.cursor.row !== y.cursor.row ||
      x.cursor.column !== y.cursor.column ||
      x.cursor.visible !== y.cursor.visible
    ) {
      findings.differ(
        'terminal.frames.cursor',
        x.cursor.visible === y.cursor.visible
          ? `${label} has the cursor elsewhere`
          : `${label} shows the cursor on one side only`,
        cursorValue(x.cursor),
        cursorValue(y.cursor),
        { ...location, row: x.cursor.row + 1, column: x.cursor.column + 1 },
      )
      return
    }
    if (x.serialized_state !== y.serialized_state) {
      // Same characters, different attributes (colours, styles, modes): still a different screen.
      const mismatch = firstMismatch(x.serialized_state, y.serialized_state)
      const index =
        mismatch === -1 ? Math.min(x.serialized_state.length, y.serialized_state.length) : mismatch
      findings.differ(
        'terminal.frames.serialized_state',
        `${label} shows the same text with different attributes or modes`,
        excerpt(x.serialized_state, index),
        excerpt(y.serialized_state, index),
        location,
      )
    }
  }
}

function checkpointFrames(frames: readonly TerminalFrame[]): { frame: TerminalFrame; index: number }[] {
  return frames.flatMap((frame, index) => (frame.checkpoint ? [{ frame, index }] : []))
}

export function describeTrigger(frame: TerminalFrame): string {
  return frame.event_index === null ? frame.trigger : `${frame.trigger} ${frame.event_index}`
}

/** A frame's cursor as a comparison shows it (visibility only where recorded). */
export function cursorValue(cursor: RetainedFrame['cursor']): {
  row: number
  column: number
  visible?: boolean
} {
  return {
    row: cursor.row,
    column: cursor.column,
    ...(cursor.visible === undefined ? {} : { visible: cursor.visible }),
  }
}
