import type { NormalizationSettings } from '../scenario/schema.js'

// Frozen: captures commit this version, so changing what a pattern matches or inserts needs a new module.

/** The semantics of `normalization.patterns` committed by captures that use them. */
export const LITERAL_REPLACEMENTS_VERSION = 'literal-replacements-v1'

export type LiteralPattern = NormalizationSettings['patterns'][number]

/**
 * Applies `normalization.patterns` in order, each to the previous one's output. Matching is literal and
 * non-overlapping from left to right; the replacement is inserted exactly as written, so `$&` or `$1` stays
 * `$&` or `$1`. An empty pattern matches before every character and at the end.
 *
 * @example
 * applyLiteralPatterns('took 35ms', [{ pattern: '35ms', replacement: '$&' }]) // 'took $&'
 * applyLiteralPatterns('ab', [{ pattern: '', replacement: 'X' }]) // 'XaXbX'
 */
export function applyLiteralPatterns(text: string, patterns: readonly LiteralPattern[]): string {
  let result = text
  for (const { pattern, replacement } of patterns) {
    result = replaceLiteral(result, pattern, replacement)
  }
  return result
}

function replaceLiteral(text: string, pattern: string, replacement: string): string {
  if (pattern === '') {
    // Positions are taken between code points, so a surrogate pair is never cut into two lone halves.
    let result = replacement
    for (const codePoint of text) {
      result += codePoint + replacement
    }
    return result
  }
  // split/join never interprets `$` sequences, unlike String.prototype.replace with a string replacement.
  return text.split(pattern).join(replacement)
}
