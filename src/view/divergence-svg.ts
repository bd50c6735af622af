import { compareCaptures } from '../compare/compare-captures.js'
import type { Comparison } from '../compare/comparison-schema.js'
import type { Evidence } from '../evidence/schema.js'
import { widthModelOf } from '../scenario/terminal-model.js'
import { buildPageData } from './page-model.js'
import { readScreenCells } from './screen-cells.js'
import { renderScreensSvg } from './screens-svg.js'

export interface DivergenceSvgInput {
  readonly authority: Evidence
  readonly reconstruction: Evidence
  /** Computed with the default options when omitted. */
  readonly comparison?: Comparison | null
}

/**
 * Both screens at the first checkpoint where they differ, as one SVG image with the differing cells outlined;
 * null when every checkpoint both sides rendered shows the same screen. The screens are rendered by
 * @xterm/headless, synchronously, so a matcher can attach the image before its test ends.
 *
 * @example
 * const svg = renderDivergenceSvg({ authority, reconstruction })
 * if (svg !== null) await writeFile('screens.svg', svg)
 */
export function renderDivergenceSvg(input: DivergenceSvgInput): string | null {
  const comparison = input.comparison ?? compareCaptures(input.authority, input.reconstruction)
  const data = buildPageData(
    [
      { label: 'authority', evidence: input.authority },
      { label: 'reconstruction', evidence: input.reconstruction },
    ],
    comparison,
  )
  const index = data.initial_checkpoint
  const checkpoint = data.checkpoints[index]
  const frames = data.sides.map((side) => ({ side, frame: side.frames[index] }))
  if (checkpoint?.status !== 'different' || frames.some(({ frame }) => frame?.status !== 'retained')) {
    return null
  }
  const screens = readScreenCells(
    frames.map(({ side, frame }) => ({
      columns: frame?.columns ?? 0,
      rows: frame?.rows ?? 0,
      scrollback: side.terminal.scrollback,
      state: frame?.state ?? '',
      widthModel: widthModelOf(side.terminal),
    })),
  )
  return renderScreensSvg(
    frames.map(({ side }, position) => ({
      label: side.label,
      screen: screens[position] ?? { rows: [], cursor: [0, 0] },
    })),
    `checkpoint ${checkpoint.label}${checkpoint.detail === null ? '' : `: ${checkpoint.detail}`}`,
  )
}
