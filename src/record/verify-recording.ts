import { compareCaptures } from '../compare/compare-captures.js'
import type { Comparison } from '../compare/comparison-schema.js'
import { describeNormalizationHint, describeScreensHint } from '../compare/format-comparison.js'
import { suggestRedactions, type RedactionHint } from '../compare/hints/varying-text.js'
import { terminalStream } from '../compare/terminal/stream.js'
import type { Evidence } from '../evidence/schema.js'
import type { Recording } from './record-scenario.js'

/** What `--verify` found: whether n replays of the recorded scenario hold against each other, and what would. */
export interface VerifyResult {
  readonly replays: number
  readonly deterministic: boolean
  /** Each replay after the first compared with the first. */
  readonly comparisons: readonly Comparison[]
  /** Lines for people: the varying text, and the rule, redaction or comparison level that would make it hold. */
  readonly report: readonly string[]
}

/** The most replays `--verify` runs: each is a whole capture. */
export const MAX_VERIFY_REPLAYS = 50

/**
 * Replays the recorded scenario `replays` times (secrets put back in memory, in the recording's environment) and
 * compares every replay with the first, as a test would compare it with its authority. When they all hold, the
 * program is deterministic under the scenario. When not, the report names what varied and proposes what would
 * make the replays hold, from the comparison's own hints (a filter or placeholder, `terminal: 'screens'`) or,
 * for varying text no rule covers, a redaction anchored on the text before it.
 */
export async function verifyRecording(
  recording: Recording,
  replays: number,
  replay: (recording: Recording) => Promise<Evidence>,
): Promise<VerifyResult> {
  const captures: Evidence[] = []
  for (let index = 0; index < replays; index++) {
    captures.push(await replay(recording))
  }
  const [first, ...others] = captures as [Evidence, ...Evidence[]]
  const comparisons = others.map((other) => compareCaptures(first, other))
  const differing = comparisons
    .map((comparison, index) => ({ comparison, replay: index + 2 }))
    .filter(({ comparison }) => comparison.verdict !== 'equivalent')
  if (differing.length === 0) {
    return {
      replays,
      deterministic: true,
      comparisons,
      report: [
        `${replays} replays of the scenario hold against each other: the program is deterministic under it.`,
      ],
    }
  }
  const report = [
    `${differing.length} of ${replays - 1} replays differ from the first: a test of this scenario would not hold.`,
  ]
  const proposals = new Set<string>()
  for (const { comparison, replay: number } of differing) {
    report.push(...describeDifference(comparison, number, first, captures[number - 1] as Evidence, proposals))
  }
  return { replays, deterministic: false, comparisons, report }
}

function describeDifference(
  comparison: Comparison,
  replay: number,
  first: Evidence,
  other: Evidence,
  proposals: Set<string>,
): string[] {
  const lines: string[] = []
  const dimensions = Object.entries(comparison.dimensions)
    .filter(([, result]) => result.outcome !== 'equal' && result.outcome !== 'not_selected')
    .map(([name, result]) => `${name} ${result.outcome}`)
  lines.push(`replay ${replay}: ${dimensions.join(', ')}`)
  const propose = (proposal: string[]): void => {
    const key = proposal.join('\n')
    if (!proposals.has(key)) {
      proposals.add(key)
      lines.push(...proposal.map((line) => `  ${line}`))
    }
  }
  const hint = comparison.normalization_hint
  if (hint !== null && hint !== undefined) {
    propose(describeNormalizationHint(hint))
  } else if (comparison.screens_equal === true) {
    propose(
      describeScreensHint(
        `terminal: 'screens' (matchers: toMatchCapture({ terminal: 'screens' }); CLI: --terminal screens)`,
      ),
    )
  } else if (comparison.dimensions.terminal.outcome === 'different') {
    const redaction = suggestRedactions(terminalStream(first).text, terminalStream(other).text)
    if (redaction === undefined) {
      lines.push(
        '  the terminal output differs in more than varying text on the same lines: no rule can make it hold.',
      )
    } else {
      propose(describeRedactions(redaction))
    }
  }
  return lines
}

function describeRedactions(hint: RedactionHint): string[] {
  return [
    ...hint.spans.map(
      (span) =>
        `Varying text on line ${span.line}: ${JSON.stringify(span.first)} then ${JSON.stringify(span.second)}, after ${JSON.stringify(span.before.slice(-40))}.`,
    ),
    `Redaction hint: these redactions make the replays' terminal text equal (docs/normalization.md#redactions).`,
    `  Add to the scenario: ${hint.scenario}`,
  ]
}
