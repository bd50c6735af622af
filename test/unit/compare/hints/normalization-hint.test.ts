import os from 'node:os'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { compareCaptures } from '../../../../src/compare/compare-captures.js'
import { formatComparison } from '../../../../src/compare/format-comparison.js'
import { buildEvidence } from '../../../helpers/build-evidence.js'

const exited = { exit: { code: 0, signal: 0 } } as const
const capture = (...chunks: string[]) => buildEvidence([...chunks.map((chunk) => ({ chunk })), exited])

describe('normalization_hint', () => {
  test('names the filter when the terminal differs only in a measured duration, with the scenario lines', () => {
    const comparison = compareCaptures(
      capture('build done in 4.898ms\r\n', 'ok\r\n'),
      capture('build done in 12.1ms\r\n', 'ok\r\n'),
    )
    expect(comparison.verdict).toBe('different')
    // Both are fractional: the narrower filter, which still fails a configured whole duration that changes.
    expect(comparison.normalization_hint).toEqual({
      placeholders: [],
      filters: ['measured_durations'],
      scenario: '"normalization": {"filters":["measured_durations"]}',
    })
    expect(formatComparison(comparison, { color: false })).toContain(
      'Normalization hint: every terminal difference is text that filters measured_durations would replace',
    )
  })

  test('names durations where a whole-number duration differs, also under the default measured_durations', () => {
    const bare = compareCaptures(
      capture('built in 0.8s\r\n', 'retrying in 5s\r\n'),
      capture('built in 1.2s\r\n', 'retrying in 10s\r\n'),
    )
    expect(bare.normalization_hint?.filters).toEqual(['durations'])
    const defaults = (evidence: ReturnType<typeof capture>) => {
      evidence.commitments.comparison_contract.value.normalization.filters = [
        'temp_names',
        'measured_durations',
      ]
      return evidence
    }
    const underDefaults = compareCaptures(
      defaults(capture('transform 906ms\r\n')),
      defaults(capture('transform 1204ms\r\n')),
    )
    expect(underDefaults.normalization_hint).toEqual({
      placeholders: [],
      filters: ['durations'],
      scenario: '"normalization": {"filters":["temp_names","measured_durations","durations"]}',
    })
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

  describe('user and host name', () => {
    afterEach(() => {
      vi.unstubAllEnvs()
      vi.restoreAllMocks()
    })

    test('names the user placeholder when the differing text is the user name of each machine', () => {
      // This process is the checking machine: its user is ci-bob; the authority was recorded by alice.
      vi.stubEnv('USER', 'ci-bob')
      const comparison = compareCaptures(
        capture('built by alice\r\n', 'ok\r\n'),
        capture('built by ci-bob\r\n', 'ok\r\n'),
      )
      expect(comparison.normalization_hint).toEqual({
        placeholders: ['user'],
        filters: [],
        scenario: '"normalization": {"placeholders":["user"]}',
      })
      expect(formatComparison(comparison, { color: false })).toContain(
        'every terminal difference is text that placeholders user would replace',
      )
    })

    test('names the hostname placeholder for the host name, also beside a real difference', () => {
      vi.spyOn(os, 'hostname').mockReturnValue('ci-runner')
      const comparison = compareCaptures(
        capture('host alpha-laptop\r\n', 'tests passed\r\n'),
        capture('host ci-runner\r\n', 'tests FAILED\r\n'),
      )
      expect(comparison.normalization_hint).toMatchObject({
        placeholders: ['hostname'],
        covered: { lines: 1, of: 2 },
      })
    })

    test('does not name the user when the differing word is not the name of either side', () => {
      vi.stubEnv('USER', 'ci-bob')
      const comparison = compareCaptures(capture('built by alice\r\n'), capture('built by carol\r\n'))
      expect(comparison.normalization_hint).toBeNull()
    })
  })

  describe('redaction for an id-like value', () => {
    test('proposes a redaction anchored on the line start for a pid no filter covers', () => {
      const comparison = compareCaptures(
        capture('  PID TTY\r\n', '  4821 pts/0\r\n', 'done\r\n'),
        capture('  PID TTY\r\n', '  5137 pts/0\r\n', 'done\r\n'),
      )
      expect(comparison.redaction_hint).toEqual({
        redactions: [{ regex: '^[ \\t]*(?<redacted>\\d+)', replacement: '[NUMBER]' }],
        scenario:
          '"normalization": {"redactions":[{"regex":"^[ \\\\t]*(?<redacted>\\\\d+)","replacement":"[NUMBER]"}]}',
        values: ['4821 → 5137'],
      })
      expect(formatComparison(comparison, { color: false })).toContain(
        'Redaction hint: every terminal difference is an id-like value that no filter replaces (4821 → 5137)',
      )
    })

    test('takes the blanks of a right-aligned column into the redaction', () => {
      const aligned = compareCaptures(
        capture('  PID TTY\r\n', ' 4821 pts/0\r\n'),
        capture('  PID TTY\r\n', '  137 pts/0\r\n'),
      )
      expect(aligned.redaction_hint).toMatchObject({
        redactions: [{ regex: '^(?<redacted>[ \\t]*\\d+)', replacement: '[NUMBER]' }],
        values: ['4821 → 137'],
      })
    })

    test('proposes a redaction for the id line only when another line differs in behaviour', () => {
      const comparison = compareCaptures(
        capture('started worker 41873\r\n', 'tests passed\r\n'),
        capture('started worker 39120\r\n', 'tests FAILED\r\n'),
      )
      expect(comparison.redaction_hint).toMatchObject({
        redactions: [{ regex: 'worker (?<redacted>\\d+)', replacement: '[NUMBER]' }],
        covered: { lines: 1, of: 2 },
      })
    })

    test('proposes nothing for a value a filter covers, or a word without a digit', () => {
      const uuid = compareCaptures(
        capture('id 3f1e6f0c-2b8e-4d4a-9c1e-7a2b3c4d5e6f\r\n'),
        capture('id 8a0c6e2d-1b3f-4e5a-8d7c-6b5a4c3d2e1f\r\n'),
      )
      expect(uuid.redaction_hint).toBeUndefined()
      const word = compareCaptures(capture('tests passed\r\n'), capture('tests failed\r\n'))
      expect(word.redaction_hint).toBeUndefined()
    })
  })

  test('says nothing when a difference is behaviour', () => {
    const comparison = compareCaptures(capture('took 4ms: ok\r\n'), capture('took 9ms: failed\r\n'))
    expect(comparison.normalization_hint).toBeNull()
  })
})
