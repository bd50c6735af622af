import path from 'node:path'
import type { Evidence } from '../../evidence/schema.js'
import { FilterRule } from '../../normalize/filters.js'
import { FILTERS_V2 } from '../../normalize/filters-v2.js'
import { PlaceholderRule, pathSpellings } from '../../normalize/placeholders.js'
import type { StreamRule } from '../../normalize/stream-rule.js'
import { normalizeDetached } from '../../normalize/stream-normalizer.js'
import { FILTER_NAMES } from '../../scenario/schema.js'

type FilterName = (typeof FILTER_NAMES)[number]

/** Rules that would have made two differing terminal texts equal, and the scenario lines that add them. */
export interface NormalizationHint {
  readonly placeholders: ('root' | 'cwd')[]
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

type Candidate =
  | { readonly kind: 'placeholder'; readonly name: 'root' | 'cwd' }
  | { readonly kind: 'filter'; readonly name: FilterName }

/**
 * When two terminal texts differ only where a built-in filter or a path placeholder would have replaced text
 * (a duration, a clock time, a uuid, the checkout's path), the smallest set of those rules that makes them
 * equal; when only some differing lines are such text (the others differ in behaviour), the rules for those lines,
 * with how many they cover (`covered`); undefined when none is. Placeholders are resolved from each side's own capture root, which its Evidence
 * records; home and temp dir are not recorded, so they are never suggested.
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
    ...(['root', 'cwd'] as const)
      .filter((name) => committed.placeholders?.includes(name) !== true)
      .map((name) => ({ kind: 'placeholder' as const, name })),
    ...FILTER_NAMES.filter((name) => committed.filters?.includes(name) !== true).map((name) => ({
      kind: 'filter' as const,
      name,
    })),
  ]
  if (candidates.length === 0) {
    return undefined
  }
  if (equalUnder(candidates, authority, reconstruction, texts)) {
    return smallestHint(candidates, authority, reconstruction, texts, committed)
  }
  const span = coveredLines(candidates, authority, reconstruction, texts)
  return span === undefined
    ? undefined
    : { ...smallestHint(candidates, authority, reconstruction, span, committed), covered: span.covered }
}

/**
 * The differing lines that all candidates make equal, when both texts have as many lines and some are covered:
 * a hint for part of a failure whose other lines differ in behaviour.
 */
function coveredLines(
  all: readonly Candidate[],
  authority: Evidence,
  reconstruction: Evidence,
  texts: Texts,
) {
  const a = texts.authority.split('\n')
  const b = texts.reconstruction.split('\n')
  if (a.length !== b.length) {
    return undefined
  }
  const differing = a.flatMap((line, index) => (line === b[index] ? [] : [index]))
  const covered = differing.filter((index) =>
    equalUnder(all, authority, reconstruction, { authority: a[index] ?? '', reconstruction: b[index] ?? '' }),
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

function equalUnder(
  chosen: readonly Candidate[],
  authority: Evidence,
  reconstruction: Evidence,
  texts: Texts,
) {
  return (
    normalizeWith(chosen, authority, texts.authority) ===
    normalizeWith(chosen, reconstruction, texts.reconstruction)
  )
}

/** The smallest set of candidates that makes `texts` equal, and the scenario line that adds it. */
function smallestHint(
  candidates: readonly Candidate[],
  authority: Evidence,
  reconstruction: Evidence,
  texts: Texts,
  committed: Normalization,
): NormalizationHint {
  // Filters are dropped first and the root last, so `root` is kept over `cwd` when either would do.
  let chosen = candidates
  for (const candidate of [...candidates].reverse()) {
    const without = chosen.filter((kept) => kept !== candidate)
    if (equalUnder(without, authority, reconstruction, texts)) {
      chosen = without
    }
  }
  const placeholders = chosen.flatMap((candidate) =>
    candidate.kind === 'placeholder' ? [candidate.name] : [],
  )
  const filters = chosen.flatMap((candidate) => (candidate.kind === 'filter' ? [candidate.name] : []))
  return { placeholders, filters, scenario: scenarioSnippet(committed, placeholders, filters) }
}

function normalizeWith(chosen: readonly Candidate[], evidence: Evidence, text: string): string {
  const root = evidence.host.capture_root
  const values: Record<'root' | 'cwd', string> = {
    root,
    cwd: path.posix.resolve(root, evidence.commitments.comparison_contract.value.working_directory),
  }
  const rules: StreamRule[] = []
  const spellings = chosen.flatMap((candidate) =>
    candidate.kind === 'placeholder' ? pathSpellings(candidate.name, [values[candidate.name]]) : [],
  )
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
