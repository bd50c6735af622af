import { FILTER_NAMES, type NormalizationSettings } from '../scenario/schema.js'
import { FILTER_TOKENS, FilterRule, type FilterName } from './filters.js'
import { FILTERS_V2 } from './filters-v2.js'
import {
  resolvePlaceholders,
  type PlaceholderContext,
  type PlaceholderResolution,
} from './placeholder-values.js'
import { PlaceholderRule } from './placeholders.js'
import { RedactionRule } from './redactions.js'
import type { StreamRule } from './stream-rule.js'
import { STREAM_HOLD_LIMIT_CHARACTERS, type StreamHoldAccounting } from './stream-normalizer.js'

/** What the stream rules did in one capture: per rule whether it applied and how often; never a value. */
export interface StreamNormalizationReport extends StreamHoldAccounting {
  readonly placeholders: (PlaceholderResolution & { readonly replaced: number })[]
  readonly redactions: { readonly index: number; readonly replaced: number }[]
  readonly filters: { readonly name: FilterName; readonly token: string; readonly replaced: number }[]
  readonly hold_limit_characters: number
}

export interface StreamRuleSet {
  /** In the order that decides between matches at the same position: redactions, placeholders, filters. */
  readonly rules: readonly StreamRule[]
  report(replacements: (label: string) => number, hold: StreamHoldAccounting): StreamNormalizationReport
}

/** Whether the settings name any rule applied to the stream rather than chunk by chunk. */
export function hasStreamRules(settings: NormalizationSettings): boolean {
  return (
    (settings.placeholders?.length ?? 0) > 0 ||
    (settings.filters?.length ?? 0) > 0 ||
    (settings.redactions?.length ?? 0) > 0
  )
}

/**
 * The stream rules of a capture, with its placeholders resolved from its own context; undefined when the
 * settings name none, so output passes chunk by chunk as before.
 */
export function createStreamRuleSet(
  settings: NormalizationSettings,
  context: PlaceholderContext,
): StreamRuleSet | undefined {
  if (!hasStreamRules(settings)) {
    return undefined
  }
  const placeholders = resolvePlaceholders(settings.placeholders ?? [], context)
  const redactions = settings.redactions ?? []
  // Filters follow their documented order, whatever order the scenario lists them in.
  const filters = FILTER_NAMES.filter((name) => settings.filters?.includes(name) === true)
  const placeholderRule =
    placeholders.spellings.length > 0 ? new PlaceholderRule(placeholders.spellings) : undefined
  // Redactions read the text after the placeholders (regex-redactions-v2), so one that matches a token starts
  // where the placeholder would: listed first, it wins there, and its replacement keeps the token.
  const rules: StreamRule[] = [
    ...redactions.map((redaction, index) => new RedactionRule(redaction, index, placeholderRule)),
    ...(placeholderRule === undefined ? [] : [placeholderRule]),
    ...filters.map((name) => new FilterRule(name, FILTERS_V2)),
  ]
  return {
    rules,
    report: (replacements, hold) => ({
      placeholders: placeholders.resolutions.map((resolution) => ({
        ...resolution,
        replaced: replacements(resolution.name),
      })),
      redactions: redactions.map((_, index) => ({ index, replaced: replacements(`redactions[${index}]`) })),
      filters: filters.map((name) => ({ name, token: FILTER_TOKENS[name], replaced: replacements(name) })),
      hold_limit_characters: STREAM_HOLD_LIMIT_CHARACTERS,
      ...hold,
    }),
  }
}
