import type { Evidence } from '../../evidence/schema.js'
import { showName } from '../../internal/escape-controls.js'

/** A place where a filesystem checkpoint could not list everything, so an unlisted entry proves nothing. */
export interface EnumerationGap {
  readonly reason: 'enumeration_incomplete' | 'enumeration_failed'
  readonly detail: string
}

/**
 * Roots cut by limits and folders that could not be read, at either checkpoint, read from the accounting
 * itself: the residual unknowns derived from it may be missing from a document, the accounting may not.
 * Comparison and trace checking both decide from this, and skip the `enumeration_incomplete` residual unknowns.
 */
export function enumerationGaps(evidence: Evidence): EnumerationGap[] {
  const gaps: EnumerationGap[] = []
  for (const [checkpoint, accounting] of [
    ['before_launch', evidence.truncation_details.filesystem_before],
    ['after_settlement', evidence.truncation_details.filesystem_after],
  ] as const) {
    for (const root of accounting?.roots ?? []) {
      if (!root.exhausted) {
        gaps.push({
          reason: 'enumeration_incomplete',
          detail: `${root.alias} was not enumerated completely at ${checkpoint}, so entries it did not list may differ`,
        })
      }
    }
    for (const failure of accounting?.enumeration_failures ?? []) {
      gaps.push({
        reason: 'enumeration_failed',
        detail: `${showName(failure.path)} could not be read at ${checkpoint} (${failure.system_code})`,
      })
    }
  }
  return gaps
}
