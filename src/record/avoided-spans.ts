import { createStreamRuleSet } from '../normalize/stream-rule-set.js'
import { scanRules, type StreamRule } from '../normalize/stream-rule.js'
import type { PlaceholderContext } from '../normalize/placeholder-values.js'
import { FILTER_NAMES, PLACEHOLDER_NAMES } from '../scenario/schema.js'

/** Text a wait condition must not contain: what a placeholder or filter would replace, or a secret. */
export interface AvoidedSpan {
  readonly start: number
  readonly end: number
  /** The placeholder or filter name, or `sensitive` for a secret. */
  readonly label: string
  /** What normalization writes instead (empty for a secret). */
  readonly replacement: string
}

/** Finds the spans of a line that a wait condition must leave out. */
export type SpanFinder = (text: string) => AvoidedSpan[]

/**
 * Every placeholder and every built-in filter, with the placeholders' values resolved from the recording's
 * context: the same matchers captures normalize with, so a proposal names exactly the rules that would apply.
 */
export function normalizationRules(context: PlaceholderContext): readonly StreamRule[] {
  return (
    createStreamRuleSet(
      { patterns: [], ports: false, placeholders: [...PLACEHOLDER_NAMES], filters: [...FILTER_NAMES] },
      context,
    )?.rules ?? []
  )
}

/** A finder over `rules`, plus the secrets typed so far (found as literal text). */
export function spanFinder(rules: readonly StreamRule[], secrets: () => readonly string[]): SpanFinder {
  return (text) => {
    const spans: AvoidedSpan[] = []
    scanRules(rules, text, 0, text.length, (start, end, match) => {
      if (match !== undefined) {
        spans.push({ start, end, label: match.label, replacement: match.replacement })
      }
    })
    for (const secret of secrets()) {
      for (let at = text.indexOf(secret); secret !== '' && at !== -1; at = text.indexOf(secret, at + 1)) {
        spans.push({ start: at, end: at + secret.length, label: 'sensitive', replacement: '' })
      }
    }
    return spans.sort((a, b) => a.start - b.start)
  }
}

/** `text` with every normalization span replaced by its token: a screen as a capture's frames would show it. */
export function normalizeLine(text: string, find: SpanFinder): string {
  let result = ''
  let position = 0
  for (const span of find(text)) {
    if (span.start >= position && span.label !== 'sensitive') {
      result += text.slice(position, span.start) + span.replacement
      position = span.end
    }
  }
  return result + text.slice(position)
}
