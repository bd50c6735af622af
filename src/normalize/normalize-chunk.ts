import type { NormalizationSettings } from '../scenario/schema.js'

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
 * The per-chunk normalization hook. This release applies no rule yet (the identity): port and literal-pattern
 * normalization arrive as versioned modules, and the commitment records that none was applied.
 */
export function createChunkNormalizer(_settings: NormalizationSettings): ChunkNormalizer {
  return (text) => text
}

/** `sensitiveRedactionVersion` is set when the scenario has sensitive values that output is searched for. */
export function normalizationCommitment(
  settings: NormalizationSettings,
  sensitiveRedactionVersion: string | null,
): NormalizationCommitment {
  return {
    ports: settings.ports,
    port_normalization_version: null,
    patterns: settings.patterns,
    pattern_normalization_version: null,
    sensitive_redaction_version: sensitiveRedactionVersion,
  }
}
