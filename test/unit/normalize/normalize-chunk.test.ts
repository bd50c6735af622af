import { describe, expect, test } from 'vitest'
import { createChunkNormalizer, normalizationCommitment } from '../../../src/normalize/normalize-chunk.js'

describe('createChunkNormalizer', () => {
  test('replaces ports by default settings', () => {
    expect(createChunkNormalizer({ patterns: [], ports: true })('on localhost:4242\r\n')).toBe(
      'on localhost:<port>\r\n',
    )
  })

  test('is the identity with no patterns and ports off', () => {
    expect(createChunkNormalizer({ patterns: [], ports: false })('on localhost:4242')).toBe(
      'on localhost:4242',
    )
  })

  test('returns the original text when the rules cancel out', () => {
    const normalize = createChunkNormalizer({
      patterns: [
        { pattern: 'a', replacement: 'b' },
        { pattern: 'b', replacement: 'a' },
      ],
      ports: true,
    })
    const text = 'a'
    expect(normalize(text)).toBe(text)
  })
})

describe('normalizationCommitment', () => {
  test('commits the port version when ports are normalized and no pattern version without patterns', () => {
    expect(normalizationCommitment({ patterns: [], ports: true }, null)).toEqual({
      ports: true,
      port_normalization_version: 'endpoint-ports-v1',
      patterns: [],
      pattern_normalization_version: null,
      sensitive_redaction_version: null,
    })
  })

  test('commits the pattern version only when there are patterns, and no port version with ports off', () => {
    const patterns = [{ pattern: 'a', replacement: '$&' }]
    expect(normalizationCommitment({ patterns, ports: false }, 'sensitive-input-mask-v1')).toEqual({
      ports: false,
      port_normalization_version: null,
      patterns,
      pattern_normalization_version: 'literal-replacements-v1',
      sensitive_redaction_version: 'sensitive-input-mask-v1',
    })
  })
})
