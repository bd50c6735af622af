import type { ExpectedLine } from './parse-block.js'
import type { Segment } from './expected-line.js'

/**
 * The `screen_regex` an input waits for, built from the expected text before it. Screen waits read the live
 * screen as drawn (rows up to their last written cell, joined by newlines; docs/events.md#what-a-screen-wait-sees)
 * and before normalization, so REA's tokens and `[..]` stand for any text within a row there.
 */

const ANY_IN_ROW = '[^\\n]*?'
const STYLE_MARK = /\{=[^{}]*\}/g
/** Only blank rows (or none) follow: the text matched is the last thing drawn. */
const AT_SCREEN_END = '(?=\\s*(?![\\s\\S]))'
const AT_SCREEN_START = '(?<![\\s\\S])'

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}

/** A row's pattern: trailing blanks optional (a prompt is drawn with or without its space). */
export function rowPattern(segments: readonly Segment[]): string {
  let pattern = ''
  for (const segment of segments) {
    switch (segment.kind) {
      case 'text':
        // Style marks (`color`) are not on the live screen, which shows only characters.
        pattern += escapeRegex(segment.text.replace(STYLE_MARK, ''))
        break
      case 'typed':
        pattern += escapeRegex(segment.text)
        break
      case 'token':
      case 'any':
        pattern += ANY_IN_ROW
        break
      case 'secret':
        // REA masks an echoed secret with stars; a program may draw its own, or nothing.
        pattern += '\\**'
        break
      case 'key':
        break
    }
  }
  return `${pattern.replace(/ +$/, '')} *`
}

/** Whether a line's width on the screen is known: only literal text, typed text and keys. */
function isLiteral(segments: readonly Segment[]): boolean {
  return segments.every(
    (segment) => segment.kind === 'text' || segment.kind === 'typed' || segment.kind === 'key',
  )
}

function visibleLength(segments: readonly Segment[]): number {
  let length = 0
  for (const segment of segments) {
    if (segment.kind === 'text' || segment.kind === 'typed') {
      // Wide characters take two cells: counting every character beyond ASCII twice stays on the safe side.
      for (const character of segment.text) {
        length += (character.codePointAt(0) ?? 0) < 0x80 ? 1 : 2
      }
    }
  }
  return length
}

export interface PromptWait {
  /** The lines above the input's line, nearest last, since the previous input (its own line included). */
  readonly context: readonly ExpectedLine[]
  /** What the input's line shows before it. */
  readonly prefix: readonly Segment[]
}

function isBlankSegments(segments: readonly Segment[]): boolean {
  return segments.every(
    (segment) => segment.kind === 'key' || (segment.kind === 'text' && segment.text.trim() === ''),
  )
}

/** Whether there is anything to wait for: text before the input on its line, or a non-blank line above it. */
export function hasLead(wait: PromptWait): boolean {
  return (
    !isBlankSegments(wait.prefix) ||
    wait.context.some((line) => line.kind === 'line' && !isBlankSegments(line.segments))
  )
}

/**
 * `wait=prompt` (the default): the lines since the previous input are the last rows drawn on the screen, the
 * last of them reading exactly what the input's line shows before it. A repeated prompt (a REPL's `> `) is met
 * only once the program has drawn it anew: the row holding the echo of the previous input reads `> 1+1`, not `> `.
 * Lines above are used while their width is known (literal text narrower than the terminal), up to a screenful.
 */
export function promptWaitRegex(wait: PromptWait, columns: number, rows: number): string {
  const lines: string[] = []
  const prefixBlank = isBlankSegments(wait.prefix)
  for (let index = wait.context.length - 1; index >= 0 && lines.length < rows - 1; index--) {
    const line = wait.context[index] as ExpectedLine
    if (line.kind === 'lines') {
      break
    }
    const required = lines.length === 0 && prefixBlank
    if (!required && (!isLiteral(line.segments) || visibleLength(line.segments) >= columns)) {
      break
    }
    lines.unshift(rowPattern(line.segments))
  }
  if (!prefixBlank) {
    lines.push(rowPattern(wait.prefix))
  }
  return `^${lines.join('\\n')}${AT_SCREEN_END}`
}

/** `wait=text`: a row starts with what the input's line shows before it (or the line above, at a line's start). */
export function textWaitRegex(wait: PromptWait): string {
  if (!isBlankSegments(wait.prefix)) {
    return `^${rowPattern(wait.prefix)}`
  }
  const above = [...wait.context]
    .reverse()
    .find((line) => line.kind === 'line' && !isBlankSegments(line.segments))
  return above?.kind === 'line' ? `^${rowPattern(above.segments)}` : '^'
}

/** `terminal=screens`: the whole visible screen reads as the expected screen above the input. */
export function screenWaitRegex(screen: readonly ExpectedLine[]): string {
  let pattern = AT_SCREEN_START
  screen.forEach((line, index) => {
    if (line.kind === 'lines') {
      pattern += '(?:[^\\n]*\\n)*?'
      return
    }
    pattern += rowPattern(line.segments)
    if (index < screen.length - 1) {
      pattern += '\\n'
    }
  })
  return screen.at(-1)?.kind === 'lines' ? `${pattern}[\\s\\S]*` : `${pattern}${AT_SCREEN_END}`
}
