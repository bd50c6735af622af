import type { Evidence } from '../evidence/schema.js'
import { errorMessage } from '../internal/error-message.js'
import { screenAtMoment } from './screen-moment.js'
import { renderScreensSvg, type SvgPanel } from './screens-svg.js'

/**
 * The final screens of both sides of a failure side by side as one SVG image (what the reporters attach to every
 * failure): each side's final frame drawn by the one screen renderer, the cells that differ outlined. A side that
 * is missing, or whose final frame was not rendered, is named in the caption instead of drawn.
 */
export function renderFinalScreensSvg(sides: {
  readonly authority: Evidence | null
  readonly reconstruction: Evidence | null
}): string {
  const panels: SvgPanel[] = []
  const missing: string[] = []
  for (const [label, evidence] of [
    ['authority', sides.authority],
    ['reconstruction', sides.reconstruction],
  ] as const) {
    if (evidence === null) {
      missing.push(`no ${label}`)
      continue
    }
    try {
      const { screen, cursorVisible } = screenAtMoment(evidence, { kind: 'final' })
      panels.push({ label, screen, cursorVisible })
    } catch (error) {
      missing.push(`${label}: ${errorMessage(error)}`)
    }
  }
  const caption = ['final screens', ...missing].join('; ')
  return renderScreensSvg(panels, caption)
}
