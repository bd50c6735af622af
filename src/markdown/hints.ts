import { FilterRule, FILTER_TOKENS } from '../normalize/filters.js'
import { FILTERS_V2 } from '../normalize/filters-v2.js'
import { PLACEHOLDER_TOKENS } from '../normalize/placeholders.js'
import { normalizeDetached } from '../normalize/stream-normalizer.js'
import { FILTER_NAMES } from '../scenario/schema.js'
import type { CommandCheck, SectionCheck } from './check-command.js'
import { ANY, lineMatches, linePattern, type PatternPart } from './match-lines.js'
import type { ExpectedLine } from './parse-block.js'

/**
 * What would make a failing command hold, when REA can tell: a value a filter replaces (write its token), a path
 * REA writes as a placeholder, a full-screen program whose screens are gone from the transcript, a wait that a
 * program drawing past its prompt never meets.
 */
export function commandHints(check: CommandCheck): string[] {
  const hints = new Set<string>()
  const textDiffers = check.sections.some((section) => section.alignment?.equal === false)
  if (textDiffers && check.plan.inputs.screens === null && check.usedAlternateScreen) {
    hints.add(
      'the program drew on the alternate screen (a full-screen program), whose screens are gone from the final transcript: compare its screens with `terminal=screens` (docs/markdown-cases.md#full-screen-programs)',
    )
  }
  if (check.plan.inputs.wait === 'prompt' && check.flaws.some((flaw) => flaw.includes('was never sent'))) {
    hints.add(
      "an input waits until the block's lines before it are the last ones drawn; a program that draws past its prompt (a default value after the cursor, a list below it) needs `wait=text` (docs/markdown-cases.md#when-input-goes-in)",
    )
  }
  const filters = check.evidence.commitments.comparison_contract.value.normalization.filters ?? []
  for (const section of check.sections) {
    for (const [expected, actual] of replacedPairs(section)) {
      const hint = placeholderHint(expected, actual) ?? filterHint(expected, actual, filters)
      if (hint !== null) {
        hints.add(hint)
      }
    }
  }
  return [...hints]
}

/** Each expected line the diff removes, with the terminal's line that took its place. */
function replacedPairs(section: SectionCheck): [ExpectedLine, string][] {
  const pairs: [ExpectedLine, string][] = []
  let deleted: ExpectedLine[] = []
  for (const step of section.alignment?.steps ?? []) {
    if (step.op === 'delete') {
      const line = section.expected[step.expected]
      if (line !== undefined) {
        deleted.push(line)
      }
    } else if (step.op === 'insert') {
      const line = deleted.shift()
      if (line !== undefined) {
        pairs.push([line, section.actual?.[step.actual] ?? ''])
      }
    } else {
      deleted = []
    }
  }
  return pairs
}

const PLACEHOLDER = new RegExp(
  Object.values(PLACEHOLDER_TOKENS)
    .map((token) => token.replace(/[[\]]/g, '\\$&'))
    .join('|'),
  'g',
)

function placeholderHint(expected: ExpectedLine, actual: string): string | null {
  const tokens = actual.match(PLACEHOLDER)
  const pattern = linePattern(expected)
  if (tokens === null || pattern.kind !== 'line') {
    return null
  }
  const loose: PatternPart[] = []
  for (const [index, piece] of actual.split(PLACEHOLDER).entries()) {
    if (index > 0) {
      loose.push(ANY)
    }
    loose.push(piece)
  }
  // The block's line with its own text, against the terminal's with any text where REA wrote a placeholder.
  const literal = pattern.parts.filter((part): part is string => typeof part === 'string').join('')
  if (!lineMatches(loose, literal)) {
    return null
  }
  return `line ${expected.line.number}: where the block has a path, REA shows ${[...new Set(tokens)].join(', ')} (the placeholders for the project, the command's folder, home, the temporary folder): write the token instead of the path (docs/markdown-cases.md#wildcards-and-placeholders)`
}

function filterHint(expected: ExpectedLine, actual: string, on: readonly string[]): string | null {
  const pattern = linePattern(expected)
  if (pattern.kind !== 'line') {
    return null
  }
  const literal = pattern.parts.filter((part): part is string => typeof part === 'string').join('')
  for (const name of FILTER_NAMES) {
    // A token turns on the first filter that writes it (command-scenario.ts): `[DURATION]` is durations'.
    if (on.includes(name) || name === 'measured_durations') {
      continue
    }
    // The definitions a case's capture is normalized with (stream-rule-set.ts), so a hint names only a filter
    // that would make the line hold.
    const rule = (): FilterRule => new FilterRule(name, FILTERS_V2)
    if (normalizeDetached([rule()], literal) === normalizeDetached([rule()], actual)) {
      return `line ${expected.line.number}: the two differ only in a value that changes from run to run; write ${FILTER_TOKENS[name]} where it is (the token turns the ${name} filter on)`
    }
  }
  return null
}
