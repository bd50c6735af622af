import path from 'node:path'
import type { Evidence } from '../../evidence/schema.js'
import { FilterRule } from '../../normalize/filters.js'
import { FILTERS_V2 } from '../../normalize/filters-v2.js'
import { PlaceholderRule, pathSpellings, wordSpellings } from '../../normalize/placeholders.js'
import type { StreamRule } from '../../normalize/stream-rule.js'
import { normalizeDetached } from '../../normalize/stream-normalizer.js'
import { FILTER_NAMES } from '../../scenario/schema.js'
import { machineWords, WORD_PLACEHOLDERS, type WordPlaceholder } from './machine-words.js'

type FilterName = (typeof FILTER_NAMES)[number]
type HintPlaceholder = 'root' | 'cwd' | WordPlaceholder

/** Rules that would have made two differing terminal texts equal, and the scenario lines that add them. */
export interface NormalizationHint {
  readonly placeholders: HintPlaceholder[]
  readonly filters: FilterName[]
  /** The `normalization` member of the scenario with these rules added to what it already names. */
  readonly scenario: string
  /**
   * Present when only some differing lines are covered: how many of them the rules make equal, of how many
   * differ. The others are differences in behaviour (or in values no rule knows).
   */
  readonly covered?: { readonly lines: number; readonly of: number }
}

/** Longer texts are not searched for a hint: a comparison must stay fast on large captures. */
const HINT_TEXT_LIMIT_CHARACTERS = 4 * 1024 * 1024

/**
 * The filters in the order the hint tries them: a later one is dropped first when the others still cover the
 * difference. `durations` comes after `measured_durations`, so fractional times alone are told the narrower filter
 * (a configured whole duration still fails under it), and `durations` only where whole numbers differ too.
 */
const HINT_FILTER_ORDER: readonly FilterName[] = FILTER_NAMES.flatMap((name): FilterName[] =>
  name === 'durations' ? ['measured_durations', 'durations'] : name === 'measured_durations' ? [] : [name],
)

type Candidate =
  | { readonly kind: 'placeholder'; readonly name: HintPlaceholder }
  | { readonly kind: 'filter'; readonly name: FilterName }

/**
 * When two terminal texts differ only where a built-in filter or a path placeholder would have replaced text
 * (a duration, a clock time, a uuid, the checkout's path), the smallest set of those rules that makes them
 * equal; when only some differing lines are such text (the others differ in behaviour), the rules for those lines,
 * with how many they cover (`covered`); undefined when none is. Path placeholders are resolved from each side's
 * own capture root, which its Evidence records; home and temp dir are not recorded, so they are never suggested.
 * User and host name are suggested when the differing text is a side's own name (`machineWords`).
 */
export function suggestNormalization(
  authority: Evidence,
  reconstruction: Evidence,
  texts: { readonly authority: string; readonly reconstruction: string },
): NormalizationHint | undefined {
  if (
    texts.authority === texts.reconstruction ||
    texts.authority.length > HINT_TEXT_LIMIT_CHARACTERS ||
    texts.reconstruction.length > HINT_TEXT_LIMIT_CHARACTERS
  ) {
    return undefined
  }
  const committed = authority.commitments.comparison_contract.value.normalization
  const candidates: Candidate[] = [
    ...(['root', 'cwd', ...WORD_PLACEHOLDERS] as const)
      .filter((name) => committed.placeholders?.includes(name) !== true)
      .map((name) => ({ kind: 'placeholder' as const, name })),
    ...HINT_FILTER_ORDER.filter((name) => committed.filters?.includes(name) !== true).map((name) => ({
      kind: 'filter' as const,
      name,
    })),
  ]
  if (candidates.length === 0) {
    return undefined
  }
  const sides: Sides = {
    authority,
    reconstruction,
    words: machineWords(authority, reconstruction, texts),
  }
  if (equalUnder(candidates, sides, texts)) {
    return smallestHint(candidates, sides, texts, committed)
  }
  const span = coveredLines(candidates, sides, texts)
  return span === undefined
    ? undefined
    : { ...smallestHint(candidates, sides, span, committed), covered: span.covered }
}

/**
 * The differing lines that all candidates make equal, when both texts have as many lines and some are covered:
 * a hint for part of a failure whose other lines differ in behaviour.
 */
function coveredLines(all: readonly Candidate[], sides: Sides, texts: Texts) {
  const a = texts.authority.split('\n')
  const b = texts.reconstruction.split('\n')
  if (a.length !== b.length) {
    return undefined
  }
  const differing = a.flatMap((line, index) => (line === b[index] ? [] : [index]))
  const covered = differing.filter((index) =>
    equalUnder(all, sides, { authority: a[index] ?? '', reconstruction: b[index] ?? '' }),
  )
  if (covered.length === 0) {
    return undefined
  }
  return {
    authority: covered.map((index) => a[index]).join('\n'),
    reconstruction: covered.map((index) => b[index]).join('\n'),
    covered: { lines: covered.length, of: differing.length },
  }
}

type Texts = { readonly authority: string; readonly reconstruction: string }
type Normalization = Evidence['commitments']['comparison_contract']['value']['normalization']

/** Both captures, and the user and host names each side's text would hold. */
interface Sides {
  readonly authority: Evidence
  readonly reconstruction: Evidence
  readonly words: ReturnType<typeof machineWords>
}

function equalUnder(chosen: readonly Candidate[], sides: Sides, texts: Texts) {
  return (
    normalizeWith(chosen, sides.authority, sides.words.authority, texts.authority) ===
    normalizeWith(chosen, sides.reconstruction, sides.words.reconstruction, texts.reconstruction)
  )
}

/** The smallest set of candidates that makes `texts` equal, and the scenario line that adds it. */
function smallestHint(
  candidates: readonly Candidate[],
  sides: Sides,
  texts: Texts,
  committed: Normalization,
): NormalizationHint {
  // Filters are dropped first and the root last, so `root` is kept over `cwd` when either would do.
  let chosen = candidates
  for (const candidate of [...candidates].reverse()) {
    const without = chosen.filter((kept) => kept !== candidate)
    if (equalUnder(without, sides, texts)) {
      chosen = without
    }
  }
  const placeholders = chosen.flatMap((candidate) =>
    candidate.kind === 'placeholder' ? [candidate.name] : [],
  )
  const filters = chosen.flatMap((candidate) => (candidate.kind === 'filter' ? [candidate.name] : []))
  return { placeholders, filters, scenario: scenarioSnippet(committed, placeholders, filters) }
}

function normalizeWith(
  chosen: readonly Candidate[],
  evidence: Evidence,
  words: Partial<Record<WordPlaceholder, string>>,
  text: string,
): string {
  const root = evidence.host.capture_root
  const paths: Record<'root' | 'cwd', string> = {
    root,
    cwd: path.posix.resolve(root, evidence.commitments.comparison_contract.value.working_directory),
  }
  const rules: StreamRule[] = []
  const spellings = chosen.flatMap((candidate) => {
    if (candidate.kind !== 'placeholder') {
      return []
    }
    if (candidate.name === 'root' || candidate.name === 'cwd') {
      return pathSpellings(candidate.name, [paths[candidate.name]])
    }
    const word = words[candidate.name]
    return word === undefined ? [] : wordSpellings(candidate.name, word)
  })
  if (spellings.length > 0) {
    rules.push(new PlaceholderRule(spellings))
  }
  for (const candidate of chosen) {
    if (candidate.kind === 'filter') {
      rules.push(new FilterRule(candidate.name, FILTERS_V2))
    }
  }
  return rules.length === 0 ? text : normalizeDetached(rules, text)
}

function scenarioSnippet(
  committed: Normalization,
  placeholders: readonly string[],
  filters: readonly string[],
): string {
  const merged = {
    ...(placeholders.length === 0
      ? {}
      : { placeholders: [...(committed.placeholders ?? []), ...placeholders] }),
    ...(filters.length === 0 ? {} : { filters: [...(committed.filters ?? []), ...filters] }),
  }
  return `"normalization": ${JSON.stringify(merged)}`
}
