import type { Evidence, TerminalFrame } from '../evidence/schema.js'
import { widthModelOf } from '../scenario/terminal-model.js'
import { replayText, type RowText } from '../screen/screen-replay.js'
import { replayStyledText } from '../screen/style-marks.js'

/**
 * What the terminal showed, as lines of text to hold against a block's expected text: the comparison text (after
 * placeholders, filters, redactions and masks), as the renderer drew it into the capture's frames.
 */

export type RetainedFrame = Extract<TerminalFrame, { status: 'retained' }>

export interface FrameText {
  /** Scrollback then the visible rows, soft-wrapped rows joined, trailing blanks and blank lines at the end dropped. */
  readonly transcript: readonly string[]
  /** The visible rows alone, as the screen shows them (no joining), blank rows at the end dropped. */
  readonly screen: readonly string[]
  /** The alternate screen was on (a full-screen program still drawing there). */
  readonly alternate: boolean
}

/** The final frame, or null when it was not rendered. */
export function finalFrame(evidence: Evidence): RetainedFrame | null {
  const frame = evidence.terminal.frames.findLast((entry) => entry.trigger === 'final')
  return frame?.status === 'retained' ? frame : null
}

/** The checkpoint frame taken before event `index` went in, or null when there is none (it was never sent). */
export function frameBeforeEvent(evidence: Evidence, index: number): RetainedFrame | null {
  const frame = evidence.terminal.frames.find(
    (entry) => entry.trigger === 'before_event' && entry.event_index === index,
  )
  return frame?.status === 'retained' ? frame : null
}

// Printable ASCII and CRLF only: nothing the terminal would move, wrap wider than it reads, or draw elsewhere.
const PLAIN_STATE = /^[\x20-\x7e\r\n]*$/

/** `styled`: with style marks (`color`); a plain state has none, so it reads the same either way. */
export function frameText(evidence: Evidence, frame: RetainedFrame, styled = false): FrameText {
  const terminal = evidence.commitments.comparison_contract.value.terminal
  const source = {
    columns: frame.columns,
    rows: frame.rows,
    scrollback: terminal.scrollback,
    state: frame.serialized_state,
    widthModel: widthModelOf(terminal),
  }
  const replayed =
    plainRows(frame, terminal.scrollback) ?? (styled ? replayStyledText(source) : replayText(source))
  const rows = replayed.alternate ? replayed.rows : [...replayed.scrollback, ...replayed.rows]
  return {
    transcript: trimEnd(joinWrapped(rows)),
    screen: trimEnd(replayed.rows.map((row) => row.text.trimEnd())),
    alternate: replayed.alternate,
  }
}

/**
 * Most commands in documentation print a few short lines of plain text, which the serialized state holds as they
 * are: read without redrawing them (a redraw costs a few milliseconds, as much as running a small command).
 */
function plainRows(
  frame: RetainedFrame,
  scrollback: number,
): { readonly scrollback: RowText[]; readonly rows: RowText[]; readonly alternate: false } | null {
  const state = frame.serialized_state
  if (!PLAIN_STATE.test(state)) {
    return null
  }
  const lines = state.split('\r\n')
  if (
    lines.length > frame.rows + scrollback ||
    lines.some((line) => line.length > frame.columns || line.includes('\r') || line.includes('\n'))
  ) {
    return null
  }
  const rows = lines.map((text) => ({ text: text.trimEnd(), wrapped: false }))
  const scrolled = Math.max(0, rows.length - frame.rows)
  return { scrollback: rows.slice(0, scrolled), rows: rows.slice(scrolled), alternate: false }
}

function joinWrapped(rows: readonly RowText[]): string[] {
  const lines: string[] = []
  for (const row of rows) {
    const last = lines.at(-1)
    if (row.wrapped && last !== undefined) {
      lines[lines.length - 1] = last + row.text
    } else {
      lines.push(row.text)
    }
  }
  return lines.map((line) => line.trimEnd())
}

function trimEnd(lines: readonly string[]): string[] {
  const kept = [...lines]
  while (kept.length > 0 && kept.at(-1) === '') {
    kept.pop()
  }
  return kept
}
