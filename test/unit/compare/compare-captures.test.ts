import { beforeAll, describe, expect, test } from 'vitest'
import { timingDiffers } from '../../../src/compare/timing.js'
import type { SkipCause } from '../../../src/evidence/skip-cause.js'
import {
  checkTrace,
  compareCaptures,
  formatComparison,
  isReaError,
  MATCHER_TIMING_DEFAULT,
  parseTraceSpec,
  type Evidence,
} from '../../../src/index.js'
import { timingPolicyIssues } from '../../../src/front-end.js'
import { TEST_DEFAULT_FILTERS } from '../../../src/scenario/test-defaults.js'
import { buildEvidence } from '../../helpers/build-evidence.js'

let base: Evidence
beforeAll(() => {
  base = buildEvidence([{ chunk: 'one\r\ntwo\r\nthree\r\n' }, { frame: 'retained' }])
})

const drained = (evidence: Evidence) => {
  evidence.truncation_details.raw_terminal.drain = 'incomplete'
  evidence.truncation_details.raw_terminal.truncated = true
}

/** A copy with the terminal stream replaced by `texts` (one chunk each), as if another run had written them. */
function withStream(texts: string[], change: (evidence: Evidence) => void = () => {}): Evidence {
  const copy = structuredClone(base)
  const first = copy.terminal.chunks[0]!
  copy.terminal.chunks = texts.map((data) => ({
    ...first,
    data,
    byte_length: Buffer.byteLength(data),
  }))
  change(copy)
  return copy
}

describe('the terminal stream', () => {
  test('ignores chunk boundaries', () => {
    const comparison = compareCaptures(base, withStream(['one\r\ntw', 'o\r\nthree\r\n']))
    expect(comparison.dimensions.terminal.differences.filter((d) => d.field === 'terminal.stream')).toEqual(
      [],
    )
  })

  test('locates a change by byte, line, column and each side’s chunk', () => {
    const comparison = compareCaptures(base, withStream(['one\r\ntwo\r\n', 'thrEe\r\n']))
    expect(comparison.first_divergence).toMatchObject({
      field: 'terminal.stream',
      location: {
        kind: 'terminal_stream',
        byte_offset: 13,
        line: 3,
        column: 4,
        authority: { chunk_index: 0, chunk_byte_offset: 13 },
        reconstruction: { chunk_index: 1, chunk_byte_offset: 3 },
      },
    })
  })

  test('counts bytes, not UTF-16 units, before a multibyte character', () => {
    const a = withStream(['é€😀x'])
    const b = withStream(['é€😀y'])
    const location = compareCaptures(a, b).first_divergence!.location
    expect(location).toMatchObject({ byte_offset: 2 + 3 + 4, column: 4 })
  })

  test('a complete stream that is a strict prefix of the other is different', () => {
    const comparison = compareCaptures(base, withStream(['one\r\ntwo\r\nthree\r\nfour\r\n']))
    expect(comparison.dimensions.terminal.outcome).toBe('different')
    expect(comparison.first_divergence?.summary).toBe('the reconstruction wrote more terminal output')
  })

  test('an incomplete stream whose kept prefix matches is unknown', () => {
    const comparison = compareCaptures(base, withStream(['one\r\n'], drained))
    expect(comparison.dimensions.terminal.outcome).toBe('unknown')
    expect(comparison.verdict).toBe('unknown')
  })

  test('an incomplete stream longer than a complete one is different: the extra output was observed', () => {
    const comparison = compareCaptures(base, withStream(['one\r\ntwo\r\nthree\r\nand more\r\n'], drained))
    expect(comparison.dimensions.terminal.outcome).toBe('different')
  })

  test('an incomplete side that wrote something else inside the kept prefix is still different', () => {
    const comparison = compareCaptures(
      base,
      withStream(['one\r\nTWO\r\n'], (evidence) => {
        evidence.truncation_details.raw_terminal.drain = 'incomplete'
      }),
    )
    expect(comparison.dimensions.terminal.outcome).toBe('different')
  })
})

describe('rules that replaced nothing', () => {
  /** Both sides ran a redaction and two filters; `replaced` says how often each matched on this side. */
  const withRules = (text: string, replaced: { redaction: number; durations: number; uuids: number }) =>
    withStream([text], (copy) => {
      copy.commitments.comparison_contract.value.normalization.redactions = [
        { regex: 'pid=(?<redacted>\\d+)', replacement: '[PID]' },
      ]
      copy.terminal.stream_normalization = {
        placeholders: [],
        redactions: [{ index: 0, replaced: replaced.redaction }],
        filters: [
          { name: 'durations', token: '[DURATION]', replaced: replaced.durations },
          { name: 'uuids', token: '[UUID]', replaced: replaced.uuids },
        ],
        hold_limit_characters: 65536,
        held_max_characters: 0,
        early_releases: 0,
        limit_releases: 0,
      }
    })

  test('are named in a failing comparison, those that matched on either side are not', () => {
    const comparison = compareCaptures(
      withRules('process 12 up\r\n', { redaction: 0, durations: 0, uuids: 2 }),
      withRules('process 13 up\r\n', { redaction: 0, durations: 1, uuids: 0 }),
    )
    expect(comparison.verdict).toBe('different')
    expect(comparison.unused_rules).toEqual(['redaction 0 /pid=(?<redacted>\\d+)/'])
    expect(formatComparison(comparison, { color: false })).toContain(
      'Rules that replaced nothing in either capture: redaction 0 /pid=(?<redacted>\\d+)/; check that each fits',
    )
  })

  test('are not reported when the comparison holds', () => {
    const same = withRules('process 12 up\r\n', { redaction: 0, durations: 0, uuids: 0 })
    expect(compareCaptures(same, structuredClone(same)).unused_rules).toBeUndefined()
  })
})

describe('contracts', () => {
  test('a differing normalization version is its own rule with the recapture hint', () => {
    const other = structuredClone(base)
    other.commitments.comparison_contract.value.normalization.port_normalization_version = 'endpoint-ports-v0'
    other.commitments.comparison_contract.sha256 = 'f'.repeat(64)
    try {
      compareCaptures(base, other)
      expect.unreachable()
    } catch (error) {
      expect(isReaError(error) && error.issues).toEqual([
        expect.objectContaining({
          path: 'comparison_contract.normalization.port_normalization_version',
          rule: 'normalization_version',
        }),
      ])
      expect(isReaError(error) && error.hint).toContain('recapture both sides')
    }
  })

  test('a side recorded before the test defaults added placeholders is told to re-record with -u', () => {
    const other = structuredClone(base)
    Object.assign(other.commitments.comparison_contract.value.normalization, {
      placeholders: ['root', 'cwd', 'tmpdir', 'home'],
      placeholder_normalization_version: 'context-placeholders-v1',
    })
    other.commitments.comparison_contract.sha256 = 'f'.repeat(64)
    for (const [authority, reconstruction] of [
      [base, other],
      [other, base],
    ] as const) {
      try {
        compareCaptures(authority, reconstruction)
        expect.unreachable()
      } catch (error) {
        expect(isReaError(error) && error.hint).toMatch(/recorded before REA's current defaults.*vitest -u/)
      }
    }
    other.commitments.comparison_contract.value.timeout_ms = 1
    expect(() => compareCaptures(base, other)).toThrow(
      expect.objectContaining({ hint: expect.not.stringMatching(/current defaults/) }),
    )
  })

  test('a rule added to the scenario, or the defaults grown, says the rules changed and names -u', () => {
    const withPlaceholders = structuredClone(base)
    Object.assign(withPlaceholders.commitments.comparison_contract.value.normalization, {
      placeholders: ['root', 'cwd', 'home', 'tmpdir'],
      placeholder_normalization_version: 'context-placeholders-v1',
    })
    withPlaceholders.commitments.comparison_contract.sha256 = 'e'.repeat(64)
    // The test plugin's defaults grew (user, hostname); a filter was added with the version it commits.
    const grown = structuredClone(withPlaceholders)
    Object.assign(grown.commitments.comparison_contract.value.normalization, {
      placeholders: ['root', 'cwd', 'home', 'tmpdir', 'user', 'hostname'],
      filters: ['durations'],
      filter_normalization_version: 'builtin-filters-v2',
    })
    grown.commitments.comparison_contract.sha256 = 'f'.repeat(64)
    for (const [authority, reconstruction] of [
      [withPlaceholders, grown],
      [grown, withPlaceholders],
    ] as const) {
      try {
        compareCaptures(authority, reconstruction)
        expect.unreachable()
      } catch (error) {
        const hint = isReaError(error) ? error.hint : undefined
        expect(hint).toMatch(/normalization rules changed \(placeholders, filters\).*vitest -u/)
        expect(hint).not.toContain('same REA version')
      }
    }
    grown.commitments.comparison_contract.value.timeout_ms = 1
    expect(() => compareCaptures(withPlaceholders, grown)).toThrow(
      expect.objectContaining({ hint: expect.not.stringMatching(/rules changed/) }),
    )
  })

  test('an authority recorded under the earlier default filters fails, naming the filters and -u', () => {
    // Recorded by the test plugin before measured_durations was a default; checked with today's defaults.
    const earlier = structuredClone(base)
    Object.assign(earlier.commitments.comparison_contract.value.normalization, {
      filters: ['temp_names'],
      filter_normalization_version: 'builtin-filters-v2',
    })
    earlier.commitments.comparison_contract.sha256 = 'e'.repeat(64)
    const today = structuredClone(earlier)
    today.commitments.comparison_contract.value.normalization.filters = [...TEST_DEFAULT_FILTERS]
    today.commitments.comparison_contract.sha256 = 'f'.repeat(64)
    try {
      compareCaptures(earlier, today)
      expect.unreachable()
    } catch (error) {
      expect(isReaError(error) && error.code).toBe('CONTRACT_MISMATCH')
      const hint = isReaError(error) ? error.hint : undefined
      expect(hint).toMatch(/normalization rules changed \(filters\).*`vitest -u`, `jest -u`/)
    }
  })

  test('a side recorded before REA named its width model and reply table is told to re-record with -u', () => {
    const other = structuredClone(base)
    Object.assign(other.commitments.comparison_contract.value.terminal, {
      answer_queries: true,
      reply_table: 'replies-v1',
      width_model: 'grapheme-clusters-v1',
    })
    const older = structuredClone(base)
    older.commitments.comparison_contract.value.terminal.answer_queries = true
    other.commitments.comparison_contract.sha256 = 'f'.repeat(64)
    older.commitments.comparison_contract.sha256 = 'e'.repeat(64)
    for (const [authority, reconstruction] of [
      [older, other],
      [other, older],
    ] as const) {
      try {
        compareCaptures(authority, reconstruction)
        expect.unreachable()
      } catch (error) {
        expect(isReaError(error) && error.issues.map((issue) => [issue.path, issue.rule])).toEqual([
          ['comparison_contract.terminal.reply_table', 'normalization_version'],
          ['comparison_contract.terminal.width_model', 'normalization_version'],
        ])
        expect(isReaError(error) && error.hint).toMatch(
          /recorded before REA's current defaults \(the query replies of a current terminal.*; the character widths of a current terminal.*vitest -u/,
        )
      }
    }
  })

  test('a differing executable and arguments do not matter', () => {
    const other = structuredClone(base)
    other.commitments.executable.value.arguments = ['something else']
    expect(compareCaptures(base, other).verdict).toBe('equivalent')
  })
})

describe('timing tolerance', () => {
  test.each([
    [100, 300, false],
    [0, 500, false],
    [0, 501, true],
    [1000, 3900, false],
    [1000, 4001, true],
    [null, 5, true],
    [null, null, false],
  ] as const)('tolerant: %s vs %s differ = %s', (a, b, differs) => {
    expect(timingDiffers(a, b, 'tolerant')).toBe(differs)
  })

  test('strict wants equal milliseconds', () => {
    expect(timingDiffers(100, 101, 'strict')).toBe(true)
    expect(timingDiffers(100, 100, 'strict')).toBe(false)
  })

  test.each([
    [209, 611, false], // bash -c 'sleep 0.2; echo hi' on a loaded runner: the issue's case
    [1000, 3000, false], // three times slower
    [3000, 1000, false], // or faster
    [1000, 4000, false], // four times: the limit
    [1000, 4100, true],
    [5, 500, false], // start-up jitter below the 500 ms floor
    [100, 2100, true], // a reconstruction that waits two seconds longer
    [null, 12, true], // observed on one side only
  ] as const)('the matchers’ default: %s vs %s differ = %s', (a, b, differs) => {
    expect(timingDiffers(a, b, MATCHER_TIMING_DEFAULT)).toBe(differs)
  })

  test('ignore never compares two present times, but a time on one side only still differs', () => {
    expect(timingDiffers(1, 1_000_000, 'ignore')).toBe(false)
    expect(timingDiffers(null, 5, 'ignore')).toBe(true)
  })

  test('an explicit tolerance needs both bounds exceeded', () => {
    const tolerance = { tolerance_ms: 100, ratio: 0 }
    expect([timingDiffers(0, 100, tolerance), timingDiffers(0, 101, tolerance)]).toEqual([false, true])
    expect(timingDiffers(1000, 1900, { tolerance_ms: 0, ratio: 0.5 })).toBe(false)
  })

  test('invalid policies are named by their option, with every problem', () => {
    expect(timingPolicyIssues('fast', 'timing')).toEqual([
      expect.objectContaining({
        path: 'timing',
        rule: 'choice',
        message: expect.stringContaining('got "fast"'),
      }),
    ])
    expect(timingPolicyIssues({ tolerance_ms: -1, ratio: 2, extra: 1 }, 'options.timing')).toEqual([
      expect.objectContaining({ path: 'options.timing.extra', rule: 'unknown_key' }),
      expect.objectContaining({ path: 'options.timing.tolerance_ms', rule: 'range' }),
      expect.objectContaining({ path: 'options.timing.ratio', rule: 'range' }),
    ])
    expect(timingPolicyIssues({ tolerance_ms: 1.5 }, 't').map((issue) => [issue.path, issue.rule])).toEqual([
      ['t.tolerance_ms', 'range'],
      ['t.ratio', 'required'],
    ])
    let error: unknown
    try {
      compareCaptures(base, base, { timing: { tolerance_ms: 10, ratio: 1.5 } })
    } catch (caught) {
      error = caught
    }
    expect(isReaError(error) && error.code).toBe('INVALID_ARGUMENTS')
  })

  test('the document records the policy and its tolerance; under ignore the times are notes', () => {
    const quick = structuredClone(base)
    quick.exit.at_ms = 100
    const slower = structuredClone(base)
    slower.exit.at_ms = 5100
    expect(compareCaptures(quick, slower).timing).toEqual({ policy: 'tolerant', min_ms: 500, fraction: 0.75 })
    expect(compareCaptures(quick, slower, { timing: 'strict' }).timing).toMatchObject({
      min_ms: 0,
      fraction: 0,
    })
    const explicit = compareCaptures(quick, slower, { timing: { tolerance_ms: 6000, ratio: 0.1 } })
    expect(explicit).toMatchObject({
      verdict: 'equivalent',
      timing: { policy: 'tolerance', min_ms: 6000, fraction: 0.1 },
    })
    const ignored = compareCaptures(quick, slower, { timing: 'ignore' })
    expect(ignored.verdict).toBe('equivalent')
    expect(ignored.dimensions.exit.notes).toEqual([
      'exit.at_ms not compared (timing: ignore): authority 100 ms, reconstruction 5100 ms',
    ])
    expect(formatComparison(ignored, { color: false })).toContain(
      'timing          ignore (times are shown, never compared)',
    )
    expect(compareCaptures(quick, slower).verdict).toBe('different')
  })

  test('ignore still fails every difference that is not a time', () => {
    const changed = withStream(['one\r\ntwo\r\nthree!\r\n'], (copy) => {
      copy.exit.at_ms += 5000
    })
    expect(compareCaptures(base, changed, { timing: 'ignore' }).verdict).toBe('different')
  })
})

describe('fixes found in review', () => {
  test('a difference at offset 0 after a leading newline is located at line 1, column 1', () => {
    const location = compareCaptures(withStream(['\nA']), withStream(['XA'])).first_divergence!.location
    expect(location).toMatchObject({ kind: 'terminal_stream', byte_offset: 0, line: 1, column: 1 })
  })

  test('a sensitive value that leaks where the authority hid it is different, although the text is the same', () => {
    const leaked = structuredClone(base)
    leaked.terminal.redaction = {
      version: 'sensitive-input-mask-v1',
      masked_count: 1,
      locations: [{ event_index: 0, stream_byte_offset: 4, byte_length: 8 }],
      locations_truncated: false,
    }
    const comparison = compareCaptures(base, leaked)
    expect(comparison.verdict).toBe('different')
    expect(comparison.first_divergence).toMatchObject({
      field: 'terminal.redaction',
      location: { kind: 'terminal_redaction', event_index: 0, stream_byte_offset: 4 },
    })
  })

  test('a cancelled or failed side makes exit, interaction, filesystem and process unknown, never different', () => {
    for (const disposition of ['cancelled', 'failed'] as const) {
      const ended = structuredClone(base)
      ended.disposition = disposition
      ended.exit = { ...ended.exit, reason: disposition, code: null }
      ended.settlement = { ...ended.settlement, status: 'cleanup_needed' }
      const comparison = compareCaptures(base, ended)
      expect(comparison.verdict).toBe('unknown')
      for (const dimension of ['exit', 'interaction', 'process'] as const) {
        expect(comparison.dimensions[dimension].unknowns.map((unknown) => unknown.reason)).toEqual([
          'capture_ended_early',
        ])
      }
      const trace = checkTrace(
        ended,
        parseTraceSpec({
          format: 'rea.process-capture.trace-spec',
          format_version: 1,
          events: [
            { id: 'one', line: 'one' },
            { id: 'two', line: 'two' },
            { id: 'three', line: 'three' },
            { id: 'exit', exit: { reason: 'exited', code: 0 } },
          ],
          order: [],
        }),
      )
      expect(trace.verdict).toBe('unknown')
    }
  })

  test('skip wordings and a signal that found its target gone compare equal; an unverified delivery is unknown', () => {
    const interaction = {
      sequence: 0,
      at_ms: 10,
      event_index: 0,
      type: 'signal' as const,
      scheduled_at_ms: 10,
    }
    const withInteraction = (record: Evidence['interactions'][number]) => {
      const copy = structuredClone(base)
      copy.interactions = [record]
      return copy
    }
    const skipped = withInteraction({ ...interaction, outcome: 'skipped', reason: 'the target had exited' })
    const skippedLate = withInteraction({
      ...interaction,
      outcome: 'skipped',
      reason: 'the target had exited before the event was due',
    })
    const gone = withInteraction({ ...interaction, outcome: 'dispatched', delivery: 'gone' })
    const unverified = withInteraction({
      ...interaction,
      outcome: 'failed',
      delivery: 'unverified',
      reason: 'x',
    })
    const failed = withInteraction({ ...interaction, outcome: 'failed', reason: 'EPERM' })
    expect(compareCaptures(skipped, skippedLate).dimensions.interaction.outcome).toBe('equal')
    expect(compareCaptures(skipped, gone).dimensions.interaction.outcome).toBe('equal')
    expect(compareCaptures(skipped, unverified).dimensions.interaction.outcome).toBe('unknown')
    expect(compareCaptures(skipped, failed).dimensions.interaction.outcome).toBe('different')
  })

  test('a skip cause is compared; Evidence without one reads the cause its reason and exit.reason imply', () => {
    const record = {
      sequence: 0,
      at_ms: 10,
      event_index: 0,
      type: 'signal' as const,
      scheduled_at_ms: 10,
      outcome: 'skipped' as const,
      reason: 'the target had exited before the event was due',
    }
    const withSkip = (cause: SkipCause | undefined, exitReason: Evidence['exit']['reason']) => {
      const copy = structuredClone(base)
      copy.interactions = [{ ...record, ...(cause === undefined ? {} : { cause }) }]
      copy.exit = { ...copy.exit, reason: exitReason }
      return copy
    }
    const interaction = (a: Evidence, b: Evidence) => compareCaptures(a, b).dimensions.interaction
    // Written before causes were recorded, at a deadline: the same as a new capture that names the deadline.
    expect(interaction(withSkip(undefined, 'timeout'), withSkip('deadline', 'timeout')).outcome).toBe('equal')
    expect(interaction(withSkip(undefined, 'exited'), withSkip('target_exited', 'exited')).outcome).toBe(
      'equal',
    )
    expect(interaction(withSkip('deadline', 'timeout'), withSkip('target_exited', 'timeout'))).toMatchObject({
      outcome: 'different',
      differences: [{ authority: 'deadline', reconstruction: 'target_exited' }],
    })
  })

  test('no first divergence is named when an earlier dimension is unknown', () => {
    const other = withStream(['one\r\n'], (evidence) => {
      drained(evidence)
      evidence.exit = { ...evidence.exit, code: 7 }
    })
    const comparison = compareCaptures(base, other)
    expect(comparison.verdict).toBe('different')
    expect(comparison.dimensions.terminal.outcome).toBe('unknown')
    expect(comparison.dimensions.exit.outcome).toBe('different')
    expect(comparison.first_divergence).toBeNull()
  })
})
