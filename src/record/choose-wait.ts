import type { WaitCondition } from '../scenario/schema.js'
import type { AvoidedSpan, SpanFinder } from './avoided-spans.js'
import type { ScreenSnapshot } from './timeline.js'

/**
 * The quiet a wait asks for once its text is shown, when the person's program had been silent at least this long
 * before the keystroke: the replay then types only once the program has finished drawing, as the person did.
 */
export const RECORDED_QUIET_MS = 100

/** A wait condition for one event, with the normalization rules whose spans it left out. */
export interface WaitChoice {
  readonly condition: WaitCondition
  readonly avoided: readonly string[]
}

/**
 * The smallest stable condition for an action: text of a row the program drew since the previous event (its
 * snapshot is `previous`), preferring the cursor's row (where prompts are), then rows from the bottom up; and
 * among those, text that was nowhere on the previous screen, even without its indentation (so the screen being
 * replaced cannot meet it), then text new with it, then any changed row. When the program drew (`drew`) but no
 * row changed (a redraw after a resize), any row of the screen serves: a screen wait is met only once the program
 * has drawn after the previous event. Spans a placeholder, filter or secret covers are never part of the text.
 * Undefined when the program drew nothing usable.
 */
export function chooseWait(
  previous: ScreenSnapshot,
  current: ScreenSnapshot,
  quietMs: number,
  findSpans: SpanFinder,
  drew: boolean,
): WaitChoice | undefined {
  const previousText = previous.rows.join('\n')
  const rows = current.rows.map((row, index) => ({ row, index })).filter(({ row }) => row.trim() !== '')
  const ordered = [
    ...rows.filter(({ index }) => index === current.cursor.row),
    ...rows.filter(({ index }) => index !== current.cursor.row).reverse(),
  ]
  const changed = ordered.filter(({ row, index }) => row !== previous.rows[index])
  const passes: [typeof ordered, (text: string) => boolean][] = [
    [changed, (text) => !previousText.includes(text.trimStart())],
    [changed, (text) => !previousText.includes(text)],
    [changed, () => true],
    [drew ? ordered : [], () => true],
  ]
  for (const [candidates, accept] of passes) {
    for (const { row } of candidates) {
      const spans = findSpans(row)
      const text = cleanSegment(row, spans)
      if (text === undefined || !accept(text)) {
        continue
      }
      return {
        condition: { screen: text, ...(quietMs >= RECORDED_QUIET_MS ? { quiet_ms: RECORDED_QUIET_MS } : {}) },
        avoided: [...new Set(spans.map((span) => span.label).filter((label) => label !== 'sensitive'))],
      }
    }
  }
  return undefined
}

/**
 * The part of a row between avoided spans worth waiting for: the last one with two or more visible characters
 * (a prompt ends a row), else the longest with any. A run of trailing blanks is cut to one space, which keeps a
 * prompt's `Name? ` while a row padded to the terminal's width does not commit its padding.
 */
export function cleanSegment(row: string, spans: readonly AvoidedSpan[]): string | undefined {
  const segments: string[] = []
  let position = 0
  for (const span of spans) {
    if (span.start > position) {
      segments.push(row.slice(position, span.start))
    }
    position = Math.max(position, span.end)
  }
  segments.push(row.slice(position))
  const shaped = segments
    .map((segment) => segment.replace(/ {2,}$/, ' '))
    .filter((segment) => segment.trim() !== '')
  const visible = (segment: string): number => segment.replace(/\s/g, '').length
  const chosen =
    [...shaped].reverse().find((segment) => visible(segment) >= 2) ??
    [...shaped].sort((a, b) => visible(b) - visible(a))[0]
  return chosen
}
