import type { RuleMatch, StreamRule } from './stream-rule.js'
import { scanRules } from './stream-rule.js'

// Frozen: captures commit this version, so a change to how a redaction matches or replaces needs a new module.

/**
 * The semantics of `normalization.redactions` committed by new captures: v1's, read on the text after the
 * placeholders, so an expression can name a token (`\[ROOT\]/out-(?<redacted>\d+)`) as the failure message shows
 * it; a match that begins with a token takes it along, and wins over the placeholder there.
 */
export const REDACTION_NORMALIZATION_VERSION_V2 = 'regex-redactions-v2'

/** One line as the placeholders leave it, with the way back to the line as the program wrote it. */
export interface PlaceholderView {
  readonly text: string
  /** Where a match that starts at `viewIndex` starts in the line: a token starts where its spelling did. */
  originalStart(viewIndex: number): number
  /** Where a match that ends at `viewIndex` ends in the line: a token ends where its spelling did. */
  originalEnd(viewIndex: number): number
  /** Where a search from `lineIndex` starts in the view: from inside a spelling, after its token. */
  viewIndex(lineIndex: number): number
}

interface Segment {
  readonly viewStart: number
  readonly viewEnd: number
  readonly lineStart: number
  readonly lineEnd: number
  readonly token: boolean
}

/** The line with every placeholder spelling replaced by its token, as the placeholder rule finds them. */
export function placeholderView(line: string, placeholders: StreamRule): PlaceholderView {
  const segments: Segment[] = []
  const parts: string[] = []
  let viewLength = 0
  scanRules([placeholders], line, 0, line.length, (start, end, match: RuleMatch | undefined) => {
    const text = match === undefined ? line.slice(start, end) : match.replacement
    parts.push(text)
    segments.push({
      viewStart: viewLength,
      viewEnd: viewLength + text.length,
      lineStart: start,
      lineEnd: end,
      token: match !== undefined,
    })
    viewLength += text.length
  })
  if (segments.every((segment) => !segment.token)) {
    return identityView(line)
  }
  const segmentAt = (index: number, key: 'viewStart' | 'lineStart', endKey: 'viewEnd' | 'lineEnd') =>
    segments.find((segment) => segment[key] <= index && index < segment[endKey])
  return {
    text: parts.join(''),
    originalStart(viewIndex) {
      const segment = segmentAt(viewIndex, 'viewStart', 'viewEnd')
      if (segment === undefined) {
        return line.length
      }
      return segment.token ? segment.lineStart : segment.lineStart + viewIndex - segment.viewStart
    },
    originalEnd(viewIndex) {
      const segment = segments.find((entry) => entry.viewStart < viewIndex && viewIndex <= entry.viewEnd)
      if (segment === undefined) {
        return 0
      }
      return segment.token ? segment.lineEnd : segment.lineStart + viewIndex - segment.viewStart
    },
    viewIndex(lineIndex) {
      const segment = segmentAt(lineIndex, 'lineStart', 'lineEnd')
      if (segment === undefined) {
        return viewLength
      }
      if (segment.token) {
        return lineIndex === segment.lineStart ? segment.viewStart : segment.viewEnd
      }
      return segment.viewStart + lineIndex - segment.lineStart
    },
  }
}

function identityView(line: string): PlaceholderView {
  return {
    text: line,
    originalStart: (index) => index,
    originalEnd: (index) => index,
    viewIndex: (index) => index,
  }
}
