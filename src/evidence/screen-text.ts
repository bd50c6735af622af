import pc from 'picocolors'
import { escapeText } from '../internal/escape-controls.js'
import type { Evidence, TerminalFrame } from './schema.js'

type Colors = ReturnType<typeof pc.createColors>

/**
 * Rendered screens as text for people: what a terminal showed, never the escape sequences that drew it, so a
 * diff of two captures printed on a developer's terminal cannot erase or move its lines.
 */

/** A frame's rows as shown, by the one escaping rule, without the blank rows at its end. */
export function screenRows(frame: Extract<TerminalFrame, { status: 'retained' }>): string[] {
  const rows = frame.lines.map(escapeText)
  while (rows.length > 0 && rows.at(-1) === '') {
    rows.pop()
  }
  return rows
}

/** The last retained frame: what the screen showed when the capture ended, or null when none was rendered. */
export function lastScreen(evidence: Evidence): Extract<TerminalFrame, { status: 'retained' }> | null {
  const frame = evidence.terminal.frames.findLast((entry) => entry.status === 'retained')
  return frame?.status === 'retained' ? frame : null
}

/** A frame in a box, headed by `title`: the rows as `screenRows` gives them. */
export function screenBox(
  frame: Extract<TerminalFrame, { status: 'retained' }>,
  title: string,
  c: Colors = pc.createColors(false),
): string[] {
  const rows = screenRows(frame)
  const width = Math.max(0, ...rows.map(codePointLength))
  return [
    c.dim(`${title} (${frame.columns}×${frame.rows}, blank rows at the end not shown):`),
    c.dim(`╭${'─'.repeat(width)}╮`),
    ...rows.map((row) => `${c.dim('│')}${row}${' '.repeat(width - codePointLength(row))}${c.dim('│')}`),
    c.dim(`╰${'─'.repeat(width)}╯`),
  ]
}

/**
 * Every checkpoint screen of a capture, one after another under a heading each (`checkpoint 1 · before event
 * 0`): the matchers' `actual` and `expected`, so the runner's diff shows where two captures' screens part. A
 * capture without checkpoint frames shows its normalized output, escaped.
 */
export function checkpointScreensText(evidence: Evidence): string {
  const checkpoints = evidence.terminal.frames.filter((frame) => frame.checkpoint)
  if (checkpoints.length === 0) {
    return escapeText(evidence.terminal.chunks.map((chunk) => chunk.data).join(''))
  }
  const lines: string[] = []
  checkpoints.forEach((frame, index) => {
    const label = frame.event_index === null ? frame.trigger : `${frame.trigger} ${frame.event_index}`
    if (frame.status === 'retained') {
      lines.push(
        `── checkpoint ${index} · ${label} (${frame.columns}×${frame.rows}) ──`,
        ...screenRows(frame),
      )
    } else {
      lines.push(`── checkpoint ${index} · ${label} ── not rendered (${frame.reason})`)
    }
  })
  return `${lines.join('\n')}\n`
}

/** Good enough to pad a box for people; wide and combining characters may misalign it slightly. */
function codePointLength(text: string): number {
  let length = 0
  for (const _ of text) {
    length++
  }
  return length
}
