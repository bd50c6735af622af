import type { Evidence, TerminalFrame } from '../evidence/schema.js'
import { quoteText } from '../internal/escape-controls.js'

/** The first screen row two captures show differently: where, and its text on each side. */
export interface ScreenRowChange {
  /** Ordinal among checkpoint frames, as comparisons count them. */
  readonly checkpoint: number
  readonly trigger: TerminalFrame['trigger']
  /** 1-based visible row. */
  readonly row: number
  readonly authority: string
  readonly reconstruction: string
}

/**
 * The first visible row, in checkpoint order, whose text differs between the authority's and the reconstruction's
 * checkpoint frames (both rendered, the same size): what a person looking at the two screens sees change. Null
 * when every such pair reads the same (the difference is in attributes, timing, files, or frames not rendered).
 */
export function firstScreenRowChange(authority: Evidence, reconstruction: Evidence): ScreenRowChange | null {
  const a = authority.terminal.frames.filter((frame) => frame.checkpoint)
  const b = reconstruction.terminal.frames.filter((frame) => frame.checkpoint)
  for (let checkpoint = 0; checkpoint < Math.min(a.length, b.length); checkpoint++) {
    const x = a[checkpoint]
    const y = b[checkpoint]
    if (x?.status !== 'retained' || y?.status !== 'retained' || x.trigger !== y.trigger) {
      continue
    }
    const rows = Math.max(x.lines.length, y.lines.length)
    for (let row = 0; row < rows; row++) {
      const old = x.lines[row] ?? ''
      const now = y.lines[row] ?? ''
      if (old !== now) {
        return { checkpoint, trigger: x.trigger, row: row + 1, authority: old, reconstruction: now }
      }
    }
  }
  return null
}

/** Characters kept on each side of the changed part of a row. */
const CONTEXT = 16

/**
 * `row 9: "Hello, Ada!" → "Hello, Bob!"`: the row's old and new text, quoted by the one rule (terminal-safe), cut
 * to the part that changed with a little context on each side (`…` where text was left out).
 */
export function quoteRowChange(change: ScreenRowChange): string {
  const [old, now] = trimToChange(change.authority, change.reconstruction)
  return `row ${change.row}: ${quoteText(old)} → ${quoteText(now)}`
}

/** `checkpoint 2 (final), row 9: "Hello, Ada!" → "Hello, Bob!"`: the change with the screen it is on. */
export function describeRowChange(change: ScreenRowChange): string {
  return `checkpoint ${change.checkpoint} (${change.trigger.replace('_', ' ')}), ${quoteRowChange(change)}`
}

function trimToChange(a: string, b: string): [string, string] {
  const x = Array.from(a)
  const y = Array.from(b)
  let prefix = 0
  while (prefix < x.length && prefix < y.length && x[prefix] === y[prefix]) {
    prefix++
  }
  let suffix = 0
  while (
    suffix < x.length - prefix &&
    suffix < y.length - prefix &&
    x[x.length - 1 - suffix] === y[y.length - 1 - suffix]
  ) {
    suffix++
  }
  const start = Math.max(0, prefix - CONTEXT)
  const cut = (chars: string[]): string => {
    const end = Math.min(chars.length, chars.length - suffix + CONTEXT)
    return `${start > 0 ? '…' : ''}${chars.slice(start, end).join('')}${end < chars.length ? '…' : ''}`
  }
  return [cut(x), cut(y)]
}
