import { readEvidenceFileSync, parseEvidenceText } from '../evidence/load.js'
import type { Evidence } from '../evidence/schema.js'
import { renderDivergenceSvg } from '../view/divergence-svg.js'
import { renderFinalScreensSvg } from '../view/final-screens-svg.js'
import { renderDivergencePage } from '../view/render-page.js'
import type { AssertionRecord } from './assertion-record.js'
import { errorMessage } from '../internal/error-message.js'

/** The captures an assertion saw, when the caller still holds them (the matcher); otherwise read from the record. */
export interface AssertionCaptures {
  readonly received?: Evidence | null
  readonly authority?: Evidence | null
}

/**
 * The divergence page of one capture assertion, for the reporter's divergence.html and the Vitest annotation.
 * A file authority is read back from the repository; if it is gone, or no longer the file the assertion compared
 * with (its identity digest changed), the page shows the capture alone and says why, rather than pairing it
 * with the wrong authority.
 *
 * @example
 * writeFileSync('divergence.html', renderAssertionPage(record))
 */
export function renderAssertionPage(record: AssertionRecord, captures: AssertionCaptures = {}): string {
  const sides = assertionSides(record, captures)
  return renderDivergencePage({
    authority: sides.authority,
    reconstruction: sides.reconstruction,
    comparison: record.comparison,
    trace: record.trace,
    message: sides.notes.length === 0 ? null : sides.notes.join('\n\n'),
    title: `${record.test_name}: ${record.outcome}`,
  })
}

/**
 * Both screens at the assertion's first divergent checkpoint as an SVG image; null when there is no pair of
 * screens that differ (a trace check, an assertion that compared nothing, a difference elsewhere).
 */
export function renderAssertionImage(
  record: AssertionRecord,
  captures: AssertionCaptures = {},
): string | null {
  const { authority, reconstruction } = assertionSides(record, captures)
  return authority === null || reconstruction === null || record.comparison === null
    ? null
    : renderDivergenceSvg({ authority, reconstruction, comparison: record.comparison })
}

/** Both sides' final screens as one SVG picture (`final-screens.svg`, the Vitest annotation `rea:final-screens`). */
export function renderAssertionFinalScreens(
  record: AssertionRecord,
  captures: AssertionCaptures = {},
): string {
  const { authority, reconstruction } = assertionSides(record, captures)
  return renderFinalScreensSvg({ authority, reconstruction })
}

function assertionSides(record: AssertionRecord, captures: AssertionCaptures) {
  const reconstruction =
    captures.received ??
    (record.reconstruction === null ? null : parseEvidenceText(record.reconstruction, 'the reconstruction'))
  let authority =
    captures.authority ??
    (record.authority_evidence === null
      ? null
      : parseEvidenceText(record.authority_evidence, 'the authority'))
  const notes = record.message === null ? [] : [record.message]
  if (authority === null && record.authority_path !== null && record.comparison !== null) {
    try {
      authority = readEvidenceFileSync(record.authority_path)
    } catch (error) {
      notes.push(`The authority ${record.authority_path} could not be read back: ${errorMessage(error)}`)
    }
    if (authority !== null && authority.identity_digest !== record.comparison.authority.identity_digest) {
      notes.push(
        `The authority ${record.authority_path} changed after the assertion compared with it; only the capture is shown.`,
      )
      authority = null
    }
  }
  return { authority, reconstruction, notes }
}
