import type { NormalizationSettings } from '../scenario/schema.js'
import { applyLiteralPatterns, LITERAL_REPLACEMENTS_VERSION } from './literal-patterns.js'
import { normalizePorts, PORT_NORMALIZATION_VERSION } from './ports.js'

/**
 * The normalization rules a capture committed to. A `*_version` is null when that rule was not applied, so a
 * capture never claims semantics it did not use.
 */
export interface NormalizationCommitment {
  readonly ports: boolean
  readonly port_normalization_version: string | null
  readonly patterns: NormalizationSettings['patterns']
  readonly pattern_normalization_version: string | null
  readonly sensitive_redaction_version: string | null
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
  return {
    ports: settings.ports,
    port_normalization_version: settings.ports ? PORT_NORMALIZATION_VERSION : null,
    patterns: settings.patterns,
    // Captures without patterns keep the contract they had before pattern semantics were versioned.
    pattern_normalization_version: settings.patterns.length > 0 ? LITERAL_REPLACEMENTS_VERSION : null,
    sensitive_redaction_version: sensitiveRedactionVersion,
  }
}
