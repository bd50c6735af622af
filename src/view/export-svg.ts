import type { Evidence } from '../evidence/schema.js'
import { showCommandLine } from '../internal/escape-controls.js'
import { renderScreenSvg } from './screen-svg.js'
import { screenAtMoment, type ScreenMoment } from './screen-moment.js'

/**
 * A capture's screen at a moment as a standalone SVG image (`rea export svg`): colours, attributes, wide glyphs
 * and the cursor as the terminal showed them, each row's text in one `<text>`. The same capture and moment give
 * the same bytes. Throws INVALID_ARGUMENTS for a moment the capture cannot show.
 *
 * @example
 * await writeFile('final.svg', exportScreenSvg(await readEvidenceFile('capture.json'), { kind: 'final' }))
 */
export function exportScreenSvg(evidence: Evidence, moment: ScreenMoment): string {
  const { screen, cursorVisible, label } = screenAtMoment(evidence, moment)
  const { executable, arguments: args } = evidence.commitments.executable.value
  return renderScreenSvg({ screen, cursorVisible }, `${showCommandLine([executable, ...args])}: ${label}`)
}
