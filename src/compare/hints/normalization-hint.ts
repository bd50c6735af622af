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
}

/** Longer texts are not searched for a hint: a comparison must stay fast on large captures. */
const HINT_TEXT_LIMIT_CHARACTERS = 4 * 1024 * 1024

type Candidate =
  | { readonly kind: 'placeholder'; readonly name: 'root' | 'cwd' }
  | { readonly kind: 'filter'; readonly name: FilterName }

/**
 * When two terminal texts differ only where a built-in filter or a path placeholder would have replaced text
 * (a duration, a clock time, a uuid, the checkout's path), the smallest set of those rules that makes them
 * equal; undefined otherwise. Placeholders are resolved from each side's own capture root, which its Evidence
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
  const equalUnder = (chosen: readonly Candidate[]): boolean =>
    normalizeWith(chosen, authority, texts.authority) ===
    normalizeWith(chosen, reconstruction, texts.reconstruction)
  if (candidates.length === 0 || !equalUnder(candidates)) {
    return undefined
  }
  // Filters are dropped first and the root last, so `root` is kept over `cwd` when either would do.
  let chosen = candidates
  for (const candidate of [...candidates].reverse()) {
    const without = chosen.filter((kept) => kept !== candidate)
    if (equalUnder(without)) {
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
  committed: Evidence['commitments']['comparison_contract']['value']['normalization'],
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
