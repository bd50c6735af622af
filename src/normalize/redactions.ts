import { placeholderView, type PlaceholderView } from './redactions-v2.js'
import type { RuleMatch, StreamRule } from './stream-rule.js'
import { isLineTerminator, lineStartBefore } from './text-boundaries.js'
import { errorMessage } from '../internal/error-message.js'

// Frozen: captures commit this version, so a change to how a redaction matches or replaces needs a new module.

/** The semantics of `normalization.redactions` committed by captures that use them. */
export const REDACTION_NORMALIZATION_VERSION = 'regex-redactions-v1'

/** Flags a redaction is compiled with, as waits are (`u`, `m`); `g` and `d` serve the search itself. */
export const REDACTION_FLAGS = 'dgmu'
/** The named group that, when the expression has it, is the only part replaced. */
export const REDACTED_GROUP = 'redacted'

export interface RedactionSettings {
  readonly regex: string
  readonly replacement: string
}

/** Compiles a redaction's expression, or says why it does not compile. */
export function compileRedaction(source: string): { readonly regex: RegExp } | { readonly error: string } {
  try {
    return { regex: new RegExp(source, REDACTION_FLAGS) }
  } catch (error) {
    return { error: errorMessage(error) }
  }
}

/** A line of the stream a redaction searches, and (under v2) the line as the placeholders leave it. */
interface SearchedLine {
  readonly text: string
  readonly start: number
  readonly end: number
  readonly line: string
  view?: PlaceholderView
}

/**
 * One of the user's redactions as a stream rule. It is applied to each line on its own (lines end at `\n`,
 * `\r`, U+2028 and U+2029, as for the `m` flag), so a match never crosses a line end and a line is decided
 * only once it has ended. A match of empty text replaces nothing; the replacement is inserted as written.
 */
export class RedactionRule implements StreamRule {
  readonly #regex: RegExp
  readonly #replacement: string
  readonly #label: string
  /** Under `regex-redactions-v2`: the placeholders whose tokens the expression reads instead of their values. */
  readonly #placeholders: StreamRule | undefined

  constructor(settings: RedactionSettings, index: number, placeholders?: StreamRule) {
    const compiled = compileRedaction(settings.regex)
    if ('error' in compiled) {
      throw new Error(`invalid redaction regex: the scenario was not validated (${compiled.error})`)
    }
    this.#regex = compiled.regex
    this.#replacement = settings.replacement
    this.#label = `redactions[${index}]`
    this.#placeholders = placeholders
  }

  /** The line last searched: a scan asks again from just after each match, in the same line. */
  #line: SearchedLine | undefined

  find(text: string, from: number, limit: number, floor = 0): RuleMatch | undefined {
    let searchFrom = from
    for (;;) {
      const line = this.#lineAt(text, searchFrom, floor)
      if (line.start >= limit) {
        return undefined
      }
      const match = this.#findInLine(line, searchFrom - line.start)
      if (match !== undefined) {
        return { ...match, start: match.start + line.start, end: match.end + line.start }
      }
      if (line.end >= text.length) {
        return undefined
      }
      searchFrom = line.end + 1
    }
  }

  #lineAt(text: string, position: number, floor: number) {
    const cached = this.#line
    if (cached !== undefined && cached.text === text && cached.start <= position && position <= cached.end) {
      return cached
    }
    const start = lineStartBefore(text, floor, position)
    let end = position
    while (end < text.length && !isLineTerminator(text[end])) {
      end++
    }
    this.#line = { text, start, end, line: text.slice(start, end) }
    return this.#line
  }

  undecidedFrom(text: string, from: number): number {
    return lineStartBefore(text, from, text.length)
  }

  #findInLine(line: SearchedLine, from: number): RuleMatch | undefined {
    if (this.#placeholders === undefined) {
      return findRedactionInLine(this.#regex, this.#replacement, this.#label, line.line, from)
    }
    line.view ??= placeholderView(line.line, this.#placeholders)
    const view = line.view
    const match = findRedactionInLine(
      this.#regex,
      this.#replacement,
      this.#label,
      view.text,
      view.viewIndex(from),
    )
    return match === undefined
      ? undefined
      : { ...match, start: view.originalStart(match.start), end: view.originalEnd(match.end) }
  }
}

/**
 * The first match of a redaction in one line at or after `from`, with what replaces it (only the `redacted` group
 * when the expression has one); undefined when none. A match of empty text is stepped over.
 */
export function findRedactionInLine(
  regex: RegExp,
  replacement: string,
  label: string,
  line: string,
  from: number,
): RuleMatch | undefined {
  regex.lastIndex = from
  for (let match = regex.exec(line); match !== null; match = regex.exec(line)) {
    const whole = match[0]
    if (whole.length === 0) {
      // An empty match would insert the replacement between every two characters: step over it.
      regex.lastIndex = match.index + ((line.codePointAt(match.index) ?? 0) > 0xffff ? 2 : 1)
      if (regex.lastIndex > line.length) {
        return undefined
      }
      continue
    }
    const start = match.index
    const end = start + whole.length
    if (match.groups === undefined || !(REDACTED_GROUP in match.groups)) {
      return { start, end, replacement, label }
    }
    const group = match.indices?.groups?.[REDACTED_GROUP]
    if (group === undefined) {
      continue // the `redacted` group did not take part in this match: nothing to replace
    }
    const [groupStart, groupEnd] = group
    return {
      start,
      end,
      replacement: line.slice(start, groupStart) + replacement + line.slice(groupEnd, end),
      label,
    }
  }
  return undefined
}
