import { FILTER_NAMES, PLACEHOLDER_NAMES, type NormalizationSettings } from '../scenario/schema.js'
import { applyLiteralPatterns, LITERAL_REPLACEMENTS_VERSION } from './literal-patterns.js'
import { PLACEHOLDER_NORMALIZATION_VERSION } from './placeholders.js'
import { normalizePorts, PORT_NORMALIZATION_VERSION } from './ports.js'
import { FILTER_NORMALIZATION_VERSION } from './filters.js'
import { REDACTION_NORMALIZATION_VERSION_V2 } from './redactions-v2.js'

/**
 * The normalization rules a capture committed to. A `*_version` is null when that rule was not applied, so a
 * capture never claims semantics it did not use. The stream rules (placeholders, redactions, filters) appear
 * only when used, so captures without them commit what they always did; placeholders commit their names, never
 * the values they resolved to.
 */
export interface NormalizationCommitment {
  readonly ports: boolean
  readonly port_normalization_version: string | null
  readonly patterns: NormalizationSettings['patterns']
  readonly pattern_normalization_version: string | null
  readonly sensitive_redaction_version: string | null
  readonly placeholders?: NonNullable<NormalizationSettings['placeholders']>
  readonly placeholder_normalization_version?: string
  readonly redactions?: NonNullable<NormalizationSettings['redactions']>
  readonly redaction_normalization_version?: string
  readonly filters?: NonNullable<NormalizationSettings['filters']>
  readonly filter_normalization_version?: string
}

export type ChunkNormalizer = (text: string) => string

/**
 * The per-chunk normalization hook: literal patterns first, because users write them against the output as the
 * program printed it, then ports. Each chunk is normalized on its own. Returns the input itself when no rule
 * changed it, so the recorder keeps no `raw_data`.
 */
export function createChunkNormalizer(settings: NormalizationSettings): ChunkNormalizer {
  const { patterns, ports } = settings
  return (text) => {
    const patterned = patterns.length > 0 ? applyLiteralPatterns(text, patterns) : text
    const normalized = ports ? normalizePorts(patterned) : patterned
    return normalized === text ? text : normalized
  }
}

/** `sensitiveRedactionVersion` is set when the scenario has sensitive values that output is searched for. */
export function normalizationCommitment(
  settings: NormalizationSettings,
  sensitiveRedactionVersion: string | null,
): NormalizationCommitment {
  // Names in their documented order: the order a scenario lists them in changes nothing.
  const placeholders = PLACEHOLDER_NAMES.filter((name) => settings.placeholders?.includes(name) === true)
  const filters = FILTER_NAMES.filter((name) => settings.filters?.includes(name) === true)
  const redactions = settings.redactions ?? []
  return {
    ports: settings.ports,
    port_normalization_version: settings.ports ? PORT_NORMALIZATION_VERSION : null,
    patterns: settings.patterns,
    // Captures without patterns keep the contract they had before pattern semantics were versioned.
    pattern_normalization_version: settings.patterns.length > 0 ? LITERAL_REPLACEMENTS_VERSION : null,
    sensitive_redaction_version: sensitiveRedactionVersion,
    ...(placeholders.length === 0
      ? {}
      : { placeholders, placeholder_normalization_version: PLACEHOLDER_NORMALIZATION_VERSION }),
    ...(redactions.length === 0
      ? {}
      : { redactions, redaction_normalization_version: REDACTION_NORMALIZATION_VERSION_V2 }),
    ...(filters.length === 0 ? {} : { filters, filter_normalization_version: FILTER_NORMALIZATION_VERSION }),
  }
}

/** The scenario's normalization settings as committed: the stream rules only when used. */
export function committedNormalizationSettings(settings: NormalizationSettings): NormalizationSettings {
  const { placeholders, redactions, filters, ...rest } = settings
  return {
    ...rest,
    ...(placeholders === undefined || placeholders.length === 0 ? {} : { placeholders }),
    ...(redactions === undefined || redactions.length === 0 ? {} : { redactions }),
    ...(filters === undefined || filters.length === 0 ? {} : { filters }),
  }
}
