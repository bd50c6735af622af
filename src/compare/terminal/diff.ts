import type * as Jsdiff from 'diff'
import { createRequire } from 'node:module'
import { escapeText } from '../../internal/escape-controls.js'
import { countNewlines, firstMismatch } from './stream.js'

/** The people-facing diff is capped: beyond this it stops helping and starts flooding CI logs. */
export const TERMINAL_DIFF_MAX_LINES = 400
export const TERMINAL_DIFF_MAX_BYTES = 64 * 1024
const CONTEXT_LINES = 3
/** Lines of the differing middle given to the diff algorithm; past it the hunk is cut. */
const MAX_MIDDLE_LINES = 5000
/** Edit distance at which the line diff gives up and shows the middle as replaced. */
const MAX_EDIT_LENGTH = 2000

// jsdiff is a sizeable part of REA's import time: load it only when two texts actually differ, so start-up
// (every CLI capture) and equivalent comparisons never pay for it.
let jsdiff: typeof Jsdiff | undefined
const loadDiff = (): typeof Jsdiff => (jsdiff ??= createRequire(import.meta.url)('diff') as typeof Jsdiff)

export interface TerminalDiff {
  readonly unified: string
  readonly truncated: boolean
}

/**
 * A unified diff of the two normalized terminal texts, control characters escaped so escape sequences stay
 * readable. The shared head and tail are found by a character scan and never split into lines, so one changed
 * line in 8 MiB of output costs two scans, not a line split and a diff of the whole text; a very different
 * middle is shown as replaced.
 */
export function terminalDiff(authority: string, reconstruction: string): TerminalDiff | null {
  if (authority === reconstruction) {
    return null
  }
  const head = firstMismatch(authority, reconstruction)
  const shared = head === -1 ? Math.min(authority.length, reconstruction.length) : head
  const tail = commonSuffixLength(authority, reconstruction, shared)
  // The window: CONTEXT_LINES whole lines before the first difference, the same after the last one.
  const start = linesBack(authority, shared, CONTEXT_LINES)
  const firstLine = countNewlines(authority, start) + 1
  const left = windowLines(authority, start, authority.length - tail)
  const right = windowLines(reconstruction, start, reconstruction.length - tail)
  const cut = left.cut || right.cut
  const patch = loadDiff().structuredPatch(
    'authority',
    'reconstruction',
    joinLines(left.lines),
    joinLines(right.lines),
    undefined,
    undefined,
    { context: CONTEXT_LINES, maxEditLength: MAX_EDIT_LENGTH },
  )
  const body: string[] = []
  if (patch === undefined) {
    // Too different for a line diff within bounds: show the whole window as replaced.
    body.push(`@@ -${firstLine},${left.lines.length} +${firstLine},${right.lines.length} @@`)
    body.push(...left.lines.map((line) => `-${line}`), ...right.lines.map((line) => `+${line}`))
  } else {
    for (const hunk of patch.hunks) {
      const oldStart = hunk.oldStart + firstLine - 1
      const newStart = hunk.newStart + firstLine - 1
      body.push(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`, ...hunk.lines)
    }
  }
  if (body.length === 0) {
    body.push('(the texts differ only in carriage returns before line ends or in the final newline)')
  }
  return capped(['--- authority', '+++ reconstruction', ...body], cut)
}

/** Length of the common tail, never reaching into the first `floor` characters of either text. */
function commonSuffixLength(a: string, b: string, floor: number): number {
  const limit = Math.min(a.length, b.length) - floor
  let length = 0
  while (length < limit && a.charCodeAt(a.length - 1 - length) === b.charCodeAt(b.length - 1 - length)) {
    length++
  }
  return length
}

/** Offset of the start of the line `count` lines before the line holding `index`. */
function linesBack(text: string, index: number, count: number): number {
  // lastIndexOf treats a negative start as 0, which would find a newline at offset 0 itself.
  let start = index === 0 ? 0 : text.lastIndexOf('\n', index - 1) + 1
  for (let line = 0; line < count && start > 0; line++) {
    start = text.lastIndexOf('\n', start - 2) + 1
  }
  return start
}

/** Lines from `start` through the line holding `end - 1`, plus CONTEXT_LINES more, capped at MAX_MIDDLE_LINES. */
function windowLines(text: string, start: number, end: number): { lines: string[]; cut: boolean } {
  const lineEnd = (from: number): number => {
    const newline = text.indexOf('\n', from)
    return newline === -1 ? text.length : newline + 1
  }
  // When this side has nothing of its own in the middle (end <= start), the window is context only.
  let stop = lineEnd(Math.max(end - 1, start))
  for (let line = 0; line < CONTEXT_LINES && stop < text.length; line++) {
    stop = lineEnd(stop)
  }
  const lines = splitLines(text.slice(start, stop))
  const cut = lines.length > MAX_MIDDLE_LINES
  return { lines: cut ? lines.slice(0, MAX_MIDDLE_LINES) : lines, cut }
}

function capped(lines: string[], alreadyCut: boolean): TerminalDiff {
  const kept: string[] = []
  let bytes = 0
  for (const line of lines) {
    const size = Buffer.byteLength(line) + 1
    if (kept.length >= TERMINAL_DIFF_MAX_LINES || bytes + size > TERMINAL_DIFF_MAX_BYTES) {
      kept.push(`… diff cut after ${kept.length} lines (${lines.length - kept.length} more)`)
      return { unified: `${kept.join('\n')}\n`, truncated: true }
    }
    kept.push(line)
    bytes += size
  }
  if (alreadyCut) {
    kept.push(`… diff cut after ${MAX_MIDDLE_LINES} differing lines`)
  }
  return { unified: `${kept.join('\n')}\n`, truncated: alreadyCut }
}

/**
 * Lines as a terminal shows them: a carriage return before the newline is dropped, the rest made visible by the
 * one rule for untrusted text (a literal backslash doubled, so it never reads as an escape).
 */
function splitLines(text: string): string[] {
  const lines = text.split('\n').map((line) => escapeText(line.endsWith('\r') ? line.slice(0, -1) : line))
  if (lines.at(-1) === '') {
    lines.pop()
  }
  return lines
}

const joinLines = (lines: readonly string[]): string => (lines.length === 0 ? '' : `${lines.join('\n')}\n`)
