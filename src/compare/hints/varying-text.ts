import { RedactionRule, type RedactionSettings } from '../../normalize/redactions.js'
import { normalizeDetached } from '../../normalize/stream-normalizer.js'

/** Text that differs between two runs of the same scenario, on one line of the output. */
export interface VaryingSpan {
  /** 1-based line of the normalized terminal text. */
  readonly line: number
  /** The text before the span on its line, as far as it is the same in both runs. */
  readonly before: string
  readonly first: string
  readonly second: string
}

export interface RedactionHint {
  readonly spans: VaryingSpan[]
  /** Redactions that make both texts equal; checked on the texts before they are proposed. */
  readonly redactions: RedactionSettings[]
  /** The `normalization.redactions` member of a scenario that adds them. */
  readonly scenario: string
}

/** Longer texts are not searched: a hint must stay cheap on large captures. */
const HINT_TEXT_LIMIT_CHARACTERS = 1024 * 1024
/** At most this much of the text before a span anchors its redaction. */
const ANCHOR_CHARACTERS = 24
const LINE_END = /\r\n|\r|\n/

/**
 * When two terminal texts have the same lines except for a varying run of characters on some of them (a random
 * number, an id, a name), the spans that vary and one redaction per span that replaces it, anchored on the text
 * before it: `lucky number: (?<redacted>\d+)`. Undefined when the lines differ in number, a span has no text
 * before it on its line to anchor on, or the proposed redactions do not make the texts equal.
 */
export function suggestRedactions(first: string, second: string): RedactionHint | undefined {
  if (
    first === second ||
    first.length > HINT_TEXT_LIMIT_CHARACTERS ||
    second.length > HINT_TEXT_LIMIT_CHARACTERS
  ) {
    return undefined
  }
  const linesA = first.split(LINE_END)
  const linesB = second.split(LINE_END)
  if (linesA.length !== linesB.length) {
    return undefined
  }
  const spans: VaryingSpan[] = []
  linesA.forEach((lineA, index) => {
    const lineB = linesB[index] as string
    if (lineA !== lineB) {
      spans.push(varyingSpan(lineA, lineB, index + 1))
    }
  })
  const redactions: RedactionSettings[] = []
  for (const span of spans) {
    const anchor = anchorBefore(span.before)
    if (anchor === undefined) {
      return undefined
    }
    const values = span.first.trimStart() + span.second.trimStart()
    // A right-aligned column (`  137` under ` 4821`) differs in its blanks too: they go into the group.
    const aligned = anchor === LINE_START && values !== span.first + span.second
    const redaction = {
      regex: aligned
        ? `^(?<redacted>[ \\t]*${characterClass(values)})`
        : `${anchor}(?<redacted>${characterClass(values)})`,
      replacement: replacementFor(values),
    }
    if (!redactions.some((known) => known.regex === redaction.regex)) {
      redactions.push(redaction)
    }
  }
  const rules = redactions.map((redaction, index) => new RedactionRule(redaction, index))
  if (normalizeDetached(rules, first) !== normalizeDetached(rules, second)) {
    return undefined
  }
  return { spans, redactions, scenario: `"normalization": ${JSON.stringify({ redactions })}` }
}

const LINE_START = '^[ \\t]*'

/**
 * The pattern for the text before a span: its last few words, or the line start when only blanks come before it
 * (`ps` prints a pid first); undefined when nothing before it tells where the span stands.
 */
function anchorBefore(before: string): string | undefined {
  if (before.trim() === '') {
    return before === '' || /^[ \t]+$/.test(before) ? LINE_START : undefined
  }
  return escapeRegex(before.slice(-ANCHOR_CHARACTERS).replace(/^\S*\s/, ''))
}

/** The run that differs between two lines, widened to whole words (`4821` against `137`, not `821` against `37`). */
export function varyingSpan(a: string, b: string, line: number): VaryingSpan {
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) {
    start++
  }
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  while (start > 0 && /[\p{L}\p{N}_-]/u.test(a[start - 1] as string)) {
    start--
  }
  while (
    endA < a.length &&
    endB < b.length &&
    /[\p{L}\p{N}_-]/u.test(a[endA] as string) &&
    a[endA] === b[endB]
  ) {
    endA++
    endB++
  }
  return { line, before: a.slice(0, start), first: a.slice(start, endA), second: b.slice(start, endB) }
}

function characterClass(text: string): string {
  if (/^\d+$/.test(text)) {
    return '\\d+'
  }
  if (/^[0-9a-fA-F]+$/.test(text)) {
    return '[0-9a-fA-F]+'
  }
  if (/^[\p{L}\p{N}_-]+$/u.test(text)) {
    return '[\\p{L}\\p{N}_-]+'
  }
  return '\\S+'
}

function replacementFor(text: string): string {
  return /^\d+$/.test(text) ? '[NUMBER]' : /^[0-9a-fA-F]+$/.test(text) ? '[ID]' : '[VARYING]'
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
