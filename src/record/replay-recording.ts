import type { Evidence } from '../evidence/schema.js'
import { createStreamRuleSet } from '../normalize/stream-rule-set.js'
import { trimTrailingSpaces } from '../terminal/renderer.js'
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
 * Compares the replay's final frame with the screen the person saw last. The person's screen is normalized by
 * the proposed rules, as the replay's frames are; rows are compared without trailing spaces or trailing blank
 * rows (a frame's line format).
 */
export function compareFinalScreens(
  seenRows: readonly string[],
  evidence: Evidence,
  proposed: ProposedNormalization,
  context: PlaceholderContext,
): FinalScreens {
  const rules =
    createStreamRuleSet(
      { patterns: [], ports: true, placeholders: proposed.placeholders, filters: proposed.filters },
      context,
    )?.rules ?? []
  const find = spanFinder(rules, () => [])
  const seen = withoutTrailingBlanks(seenRows.map((row) => trimTrailingSpaces(normalizeLine(row, find))))
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
