import type * as Jsdiff from 'diff'
import { createRequire } from 'node:module'
import {
  isAuthorityDocument,
  reviewSectionText,
  AUTHORITY_FORMAT_VERSION,
} from '../evidence/authority-document.js'
import { authorityReview } from '../evidence/authority-review.js'
import type { Evidence } from '../evidence/schema.js'

/** One line of a review-section diff: kept (' '), removed ('-'), added ('+'), or the start of a hunk ('@'). */
export interface ReviewDiffLine {
  readonly kind: ' ' | '-' | '+' | '@'
  readonly text: string
}

let jsdiff: typeof Jsdiff | undefined
const loadDiff = (): typeof Jsdiff => (jsdiff ??= createRequire(import.meta.url)('diff') as typeof Jsdiff)

/**
 * The review section of an authority file as the file spells it (one entry per line), what a pull request's diff
 * shows of it: the file's own section for an authority file, the one REA would write for a file of plain Evidence
 * (written before authority files had a review), nothing for a file that is missing or not JSON.
 */
export function reviewTextOf(fileText: string | null, evidence: Evidence | null): string {
  if (fileText !== null) {
    try {
      const document = JSON.parse(fileText) as unknown
      if (isAuthorityDocument(document)) {
        return reviewSectionText(document['review'])
      }
    } catch {
      // Not JSON: the evidence, when it was read some other way, still says what its review is.
    }
  }
  return evidence === null ? '' : reviewSectionText(authorityReview(evidence, AUTHORITY_FORMAT_VERSION))
}

/**
 * The lines that differ between two review sections, with `context` kept lines around each change (Infinity: the
 * whole section), indentation left as in the file. Empty when they are the same.
 */
export function reviewSectionDiff(before: string, after: string, context: number): ReviewDiffLine[] {
  if (before === after) {
    return []
  }
  const lines = (text: string) => (text === '' ? '' : `${text}\n`)
  const patch = loadDiff().structuredPatch('authority', 'pending', lines(before), lines(after), '', '', {
    context: Number.isFinite(context) ? context : Number.MAX_SAFE_INTEGER,
  })
  return patch.hunks.flatMap((hunk) => [
    {
      kind: '@' as const,
      text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
    },
    ...hunk.lines
      .filter((line) => !line.startsWith('\\'))
      .map((line) => ({ kind: line[0] as ' ' | '-' | '+', text: line.slice(1) })),
  ])
}
