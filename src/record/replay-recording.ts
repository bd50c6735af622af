import type { Evidence } from '../evidence/schema.js'
import { createStreamRuleSet } from '../normalize/stream-rule-set.js'
import { Renderer, trimTrailingSpaces } from '../screen/renderer.js'
import type { RecordedTimeline } from './timeline.js'
import { normalizeLine, spanFinder } from './avoided-spans.js'
import type { ProposedNormalization } from './build-scenario.js'
import type { RecordedEvent } from './build-events.js'
import type { ProcessScenarioInput } from '../scenario/schema.js'
import type { PlaceholderContext } from '../normalize/placeholder-values.js'

/** The recorded scenario with each secret put back in its event's `data`, for a replay in this process only. */
export function withSecrets(
  scenario: ProcessScenarioInput,
  events: readonly RecordedEvent[],
): ProcessScenarioInput {
  return {
    ...scenario,
    events: events.map((recorded) =>
      recorded.secret === undefined ? recorded.event : { ...recorded.event, data: recorded.secret },
    ),
  }
}

/** The final screen of a replay next to the one the person saw, both as a capture's frames write rows. */
export interface FinalScreens {
  readonly matched: boolean
  readonly seen: string[]
  readonly replayed: string[] | undefined
}

/**
 * Compares the replay's final frame with the screen the person saw last. A capture renders its frames from the
 * normalized output, so the person's screen is redrawn the same way: the session's output, normalized by the
 * proposed rules, with the session's resizes at their places. Rows are compared without trailing spaces or
 * trailing blank rows.
 */
export async function compareFinalScreens(
  timeline: RecordedTimeline,
  evidence: Evidence,
  proposed: ProposedNormalization,
  context: PlaceholderContext,
): Promise<FinalScreens> {
  const rules =
    createStreamRuleSet(
      { patterns: [], ports: true, placeholders: proposed.placeholders, filters: proposed.filters },
      context,
    )?.rules ?? []
  const find = spanFinder(rules, () => [])
  const renderer = new Renderer({ columns: timeline.columns, rows: timeline.rows, scrollback: 0 })
  let written = 0
  for (const entry of timeline.entries) {
    renderer.write(normalizeLine(entry.output, find))
    written += entry.output.length
    if (entry.kind === 'resize') {
      renderer.resize(entry.columns, entry.rows)
    }
  }
  renderer.write(normalizeLine(timeline.output.slice(written), find))
  const seen = withoutTrailingBlanks(await renderer.whenRendered(() => renderer.readLines()))
  renderer.dispose()
  const final = evidence.terminal.frames.findLast((frame) => frame.trigger === 'final')
  const replayed =
    final === undefined || final.status !== 'retained'
      ? undefined
      : withoutTrailingBlanks(final.lines.map(trimTrailingSpaces))
  return {
    matched:
      replayed !== undefined &&
      replayed.length === seen.length &&
      replayed.every((row, index) => row === seen[index]),
    seen,
    replayed,
  }
}

function withoutTrailingBlanks(rows: string[]): string[] {
  let end = rows.length
  while (end > 0 && rows[end - 1] === '') {
    end--
  }
  return rows.slice(0, end)
}
