import { describe, expect, test } from 'vitest'
import { compareCaptures } from '../../../../src/compare/compare-captures.js'
import { formatComparison } from '../../../../src/compare/format-comparison.js'
import { buildEvidence } from '../../../helpers/build-evidence.js'

const exited = { exit: { code: 0, signal: 0 } } as const
const capture = (...chunks: string[]) => buildEvidence([...chunks.map((chunk) => ({ chunk })), exited])

describe('normalization_hint', () => {
  test('names the filter when the terminal differs only in a duration, with the scenario lines', () => {
    const comparison = compareCaptures(
      capture('build done in 4.898ms\r\n', 'ok\r\n'),
      capture('build done in 12.1ms\r\n', 'ok\r\n'),
    )
    expect(comparison.verdict).toBe('different')
    expect(comparison.normalization_hint).toEqual({
      placeholders: [],
      filters: ['durations'],
      scenario: '"normalization": {"filters":["durations"]}',
    })
    expect(formatComparison(comparison, { color: false })).toContain(
      'Normalization hint: every terminal difference is text that filters durations would replace',
    )
  })

  test('names the smallest set: a time and a uuid, not every filter', () => {
    const comparison = compareCaptures(
      capture('at 17:37:58 id 3f1e6f0c-2b8e-4d4a-9c1e-7a2b3c4d5e6f\r\n'),
      capture('at 09:02:11 id 8a0c6e2d-1b3f-4e5a-8d7c-6b5a4c3d2e1f\r\n'),
    )
    expect(comparison.normalization_hint?.filters).toEqual(['uuids', 'timestamps'])
  })

  test('names the capture root when the output differs only in where the checkout lies', () => {
    const authority = capture('at /work/clone-a/index.js:3:9\r\n')
    const reconstruction = capture('at /srv/ci/clone-b/index.js:3:9\r\n')
    const roots = [
      { ...authority, host: { ...authority.host, capture_root: '/work/clone-a' } },
      { ...reconstruction, host: { ...reconstruction.host, capture_root: '/srv/ci/clone-b' } },
    ] as const
    const comparison = compareCaptures(roots[0], roots[1])
    expect(comparison.normalization_hint?.placeholders).toEqual(['root'])
  })

  test('names the rules for the lines they cover when other lines differ in behaviour', () => {
    const comparison = compareCaptures(
      capture('start 17:37:58\r\n', 'built in 4.8ms\r\n', 'tests passed\r\n', 'done 17:38:01\r\n'),
      capture('start 09:02:11\r\n', 'built in 12ms\r\n', 'tests FAILED\r\n', 'done 09:02:15\r\n'),
    )
    expect(comparison.verdict).toBe('different')
    expect(comparison.normalization_hint).toEqual({
      placeholders: [],
      filters: ['timestamps', 'durations'],
      scenario: '"normalization": {"filters":["timestamps","durations"]}',
      covered: { lines: 3, of: 4 },
    })
    expect(formatComparison(comparison, { color: false })).toContain(
      'Normalization hint: 3 of 4 differing lines are text that filters timestamps, durations would replace',
    )
  })

  test('says nothing when a difference is behaviour', () => {
    const comparison = compareCaptures(capture('took 4ms: ok\r\n'), capture('took 9ms: failed\r\n'))
    expect(comparison.normalization_hint).toBeNull()
  })
})
