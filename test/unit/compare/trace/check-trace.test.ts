import { describe, expect, test } from 'vitest'
import {
  checkTrace,
  parseTraceSpec,
  TRACE_SPEC_FORMAT,
  type TraceSpec,
} from '../../../../src/compare/trace/index.js'
import { traceResultSchema } from '../../../../src/compare/trace/result-schema.js'
import { buildEvidence, effect, type JournalItem } from '../../../helpers/build-evidence.js'

function spec(events: unknown[], order: { before: string; after: string }[] = []): TraceSpec {
  return parseTraceSpec({ format: TRACE_SPEC_FORMAT, format_version: 1, events, order })
}

const exitOk = { id: 'exit', exit: { reason: 'exited', code: 0 } }
const workers = spec(
  [
    { id: 'a-started', line: 'worker a: started' },
    { id: 'b-started', line: 'worker b: started' },
    { id: 'a-done', line: 'worker a: done' },
    { id: 'b-done', line: 'worker b: done' },
    { id: 'all-done', line: 'all done' },
    exitOk,
  ],
  [
    { before: 'a-started', after: 'a-done' },
    { before: 'b-started', after: 'b-done' },
    { before: 'a-done', after: 'all-done' },
    { before: 'b-done', after: 'all-done' },
    { before: 'all-done', after: 'exit' },
  ],
)
const lines = (...texts: string[]): JournalItem[] => texts.map((text) => ({ chunk: `${text}\r\n` }))

describe('checkTrace', () => {
  test.for<[string, JournalItem[]]>([
    [
      'a first',
      lines('worker a: started', 'worker b: started', 'worker a: done', 'worker b: done', 'all done'),
    ],
    [
      'b first',
      lines('worker b: started', 'worker a: started', 'worker b: done', 'worker a: done', 'all done'),
    ],
    [
      'interleaved',
      lines('worker a: started', 'worker a: done', 'worker b: started', 'worker b: done', 'all done'),
    ],
  ])('is satisfied when the workers finish %s', ([, items]) => {
    const result = checkTrace(buildEvidence(items), workers)
    expect(result.verdict).toBe('satisfied')
    expect(result.violations).toEqual([])
    expect(result.unknown_reasons).toEqual([])
    expect(result.events.every((event) => event.status === 'matched' && event.observed_count === 1)).toBe(
      true,
    )
    expect(result.constraints.map((constraint) => constraint.status)).toEqual(Array(5).fill('satisfied'))
    expect(traceResultSchema.parse(result)).toEqual(result)
  })

  test('orders lines by their place in the stream, also within one chunk', () => {
    const evidence = buildEvidence([
      { chunk: 'worker b: started\r\nworker a: started\r\nworker a: done\r\n' },
      { chunk: 'worker b: done\r\nall done\r\n' },
    ])
    expect(checkTrace(evidence, workers).verdict).toBe('satisfied')
  })

  test('reports an unmatched line as a violation with its location', () => {
    const evidence = buildEvidence([
      ...lines('worker a: started', 'worker b: started', 'worker a: done'),
      { chunk: 'worker b: done\r\nworker c: done\r\n' },
      ...lines('all done'),
    ])
    const result = checkTrace(evidence, workers)
    expect(result.verdict).toBe('violated')
    expect(result.violations).toEqual([
      {
        kind: 'unmatched_observation',
        observation: { kind: 'line', sequence: 3, chunk_index: 3, byte_offset: 16, text: 'worker c: done' },
        detail: expect.stringContaining('not accepted by any event') as unknown,
      },
    ])
  })

  test('reports a missing line as a violation when the output is complete', () => {
    const evidence = buildEvidence(
      lines('worker a: started', 'worker b: started', 'worker a: done', 'all done'),
    )
    const result = checkTrace(evidence, workers)
    expect(result.verdict).toBe('violated')
    expect(result.violations).toEqual([
      expect.objectContaining({
        kind: 'count_mismatch',
        event_id: 'b-done',
        expected_count: 1,
        observed_count: 0,
      }),
    ])
    expect(result.events.find((event) => event.id === 'b-done')).toMatchObject({ status: 'mismatch' })
    // With b-done absent, its constraints have nothing to compare.
    expect(result.constraints[1]).toMatchObject({ status: 'satisfied', pairs_checked: 0 })
  })

  test('reports a missing line as unknown when output was omitted', () => {
    const evidence = buildEvidence([
      ...lines('worker a: started', 'worker b: started', 'worker a: done'),
      { omitted: { count: 3, bytes: 9000 } },
      ...lines('x', 'all done'),
    ])
    const result = checkTrace(evidence, spec([...workers.events, { id: 'x', line: 'x' }], workers.order))
    expect(result.verdict).toBe('unknown')
    expect(result.violations).toEqual([])
    expect(result.unknown_reasons).toEqual([
      expect.objectContaining({
        reason: 'terminal_output_omitted',
        detail: expect.stringContaining('3 PTY chunks'),
      }),
    ])
    expect(result.events.find((event) => event.id === 'b-done')).toMatchObject({
      status: 'unknown',
      reason: 'terminal_output_omitted',
    })
    // The first line after the gap is partial: neither matched nor reported as unmatched.
    expect(result.observed.partial_lines).toBe(1)
    expect(result.events.find((event) => event.id === 'x')).toMatchObject({
      observed_count: 0,
      status: 'unknown',
    })
  })

  test('reports an unmatched line as a violation even when output was omitted', () => {
    const evidence = buildEvidence([
      ...lines('worker a: started', 'panic: out of memory'),
      { omitted: { count: 1, bytes: 100 } },
    ])
    const result = checkTrace(evidence, workers)
    expect(result.verdict).toBe('violated')
    expect(result.violations).toEqual([
      expect.objectContaining({
        kind: 'unmatched_observation',
        observation: expect.objectContaining({ text: 'panic: out of memory' }),
      }),
    ])
    expect(result.unknown_reasons.map((unknown) => unknown.reason)).toEqual(['terminal_output_omitted'])
  })

  test('reports an order inversion between lines with both observations', () => {
    const evidence = buildEvidence(
      lines('worker a: started', 'worker b: started', 'worker b: done', 'all done', 'worker a: done'),
    )
    const result = checkTrace(evidence, workers)
    expect(result.verdict).toBe('violated')
    expect(result.violations).toEqual([
      {
        kind: 'order_inversion',
        constraint_index: 2,
        before: 'a-done',
        after: 'all-done',
        before_observation: expect.objectContaining({ text: 'worker a: done', sequence: 4 }) as unknown,
        after_observation: expect.objectContaining({ text: 'all done', sequence: 3 }) as unknown,
        detail: expect.stringContaining('a-done must come before all-done') as unknown,
      },
    ])
    expect(result.constraints[2]).toMatchObject({ status: 'violated', pairs_checked: 1 })
  })

  test('reports a wrong exit code as a mismatched exit', () => {
    const evidence = buildEvidence([
      ...lines('worker a: started', 'worker b: started', 'worker a: done', 'worker b: done', 'all done'),
      { exit: { code: 3, signal: 0 } },
    ])
    const result = checkTrace(evidence, workers)
    expect(result.verdict).toBe('violated')
    expect(result.violations).toEqual([
      {
        kind: 'mismatched_observation',
        event_id: 'exit',
        observation: { kind: 'exit', sequence: 5, reason: 'exited', code: 3, signal: 0 },
        detail: 'expected exit exited code 0; observed exit (exited, code 3, signal 0, sequence 5)',
      },
    ])
    expect(result.events.find((event) => event.id === 'exit')).toMatchObject({
      status: 'mismatch',
      observed_count: 0,
    })
  })

  test('reports an exit the specification does not list', () => {
    const result = checkTrace(buildEvidence(lines('hi')), spec([{ id: 'hi', line: 'hi' }]))
    expect(result.violations).toEqual([
      expect.objectContaining({
        kind: 'unmatched_observation',
        observation: expect.objectContaining({ kind: 'exit' }),
      }),
    ])
  })

  test('is unknown when the exit was not observed', () => {
    const evidence = buildEvidence([
      ...lines('hi'),
      { exit: { code: null, signal: null, reason: 'timeout' } },
    ])
    const result = checkTrace(evidence, spec([{ id: 'hi', line: 'hi' }, exitOk]))
    expect(result.verdict).toBe('unknown')
    expect(result.unknown_reasons.map((unknown) => unknown.reason)).toEqual(['exit_not_observed'])
    expect(result.events[1]).toMatchObject({ status: 'unknown', reason: 'exit_not_observed' })
  })

  test('is unknown, not violated, when REA itself ended the run (failed capture)', () => {
    const evidence = buildEvidence([...lines('hi'), { exit: { code: null, signal: null, reason: 'failed' } }])
    const result = checkTrace(evidence, spec([{ id: 'hi', line: 'hi' }, exitOk]))
    expect(result.verdict).toBe('unknown')
    expect(result.unknown_reasons.map((unknown) => unknown.reason)).toContain('capture_ended_early')
    expect(result.events[1]).toMatchObject({ status: 'unknown', reason: 'capture_ended_early' })
  })

  test('is unknown when the drain was incomplete', () => {
    const evidence = buildEvidence(lines('hi'), { drain: 'incomplete' })
    const result = checkTrace(evidence, spec([{ id: 'hi', line: 'hi' }, exitOk]))
    expect(result.verdict).toBe('unknown')
    expect(result.unknown_reasons.map((unknown) => unknown.reason)).toEqual(['terminal_drain_incomplete'])
    // Seen once, but unread output could hold a second occurrence.
    expect(result.events[0]).toMatchObject({ observed_count: 1, status: 'unknown' })
  })

  test('is unknown when the journal is incomplete for a reason it cannot attribute', () => {
    const evidence = buildEvidence(lines('hi'), { extraIncompleteReasons: ['something new went missing'] })
    const result = checkTrace(evidence, spec([{ id: 'hi', line: 'hi' }, exitOk]))
    expect(result.verdict).toBe('unknown')
    expect(result.unknown_reasons).toEqual([
      expect.objectContaining({
        reason: 'journal_incomplete',
        detail: expect.stringContaining('something new'),
      }),
    ])
  })

  test('ignores omitted rendered frames, which are not a trace source', () => {
    const evidence = buildEvidence([...lines('hi'), { frame: 'omitted' }])
    expect(evidence.journal.complete).toBe(false)
    expect(checkTrace(evidence, spec([{ id: 'hi', line: 'hi' }, exitOk])).verdict).toBe('satisfied')
  })

  test('never reads timestamps: at_ms runs backwards in built Evidence', () => {
    const evidence = buildEvidence(lines('first', 'second'))
    expect(evidence.terminal.chunks[0]!.at_ms).toBeGreaterThan(evidence.terminal.chunks[1]!.at_ms)
    const ordered = spec(
      [{ id: 'first', line: 'first' }, { id: 'second', line: 'second' }, exitOk],
      [{ before: 'first', after: 'second' }],
    )
    expect(checkTrace(evidence, ordered).verdict).toBe('satisfied')
  })

  test('skips blank lines and matches lines without colours or trailing spaces', () => {
    const evidence = buildEvidence([{ chunk: '\r\n\u001b[32mok\u001b[0m   \r\n\r\n' }])
    expect(checkTrace(evidence, spec([{ id: 'ok', line: 'ok' }, exitOk])).verdict).toBe('satisfied')
  })

  describe('count', () => {
    const twice = spec([{ id: 'tick', line: 'tick', count: 2 }, exitOk])

    test('accepts exactly count occurrences', () => {
      const result = checkTrace(buildEvidence(lines('tick', 'tick')), twice)
      expect(result.verdict).toBe('satisfied')
      expect(
        result.events[0]?.observations.map(
          (observation) => observation.kind === 'line' && observation.sequence,
        ),
      ).toEqual([0, 1])
    })

    test('reports one occurrence too many as a violation, even when output was omitted', () => {
      const evidence = buildEvidence([...lines('tick', 'tick', 'tick'), { omitted: { count: 1, bytes: 10 } }])
      const result = checkTrace(evidence, twice)
      expect(result.verdict).toBe('violated')
      expect(result.violations).toEqual([
        expect.objectContaining({ kind: 'count_mismatch', expected_count: 2, observed_count: 3 }),
      ])
    })

    test('reports one occurrence too few when the output is complete', () => {
      const result = checkTrace(buildEvidence(lines('tick')), twice)
      expect(result.violations).toEqual([
        expect.objectContaining({ kind: 'count_mismatch', expected_count: 2, observed_count: 1 }),
      ])
    })

    test('requires every occurrence of before to precede every occurrence of after', () => {
      const ordered = spec(
        [{ id: 'tick', line: 'tick', count: 2 }, { id: 'tock', line: 'tock' }, exitOk],
        [{ before: 'tick', after: 'tock' }],
      )
      expect(checkTrace(buildEvidence(lines('tick', 'tick', 'tock')), ordered).verdict).toBe('satisfied')
      const result = checkTrace(buildEvidence(lines('tick', 'tock', 'tick')), ordered)
      expect(result.verdict).toBe('violated')
      expect(result.constraints[0]).toMatchObject({ status: 'violated', pairs_checked: 2 })
    })
  })

  describe('interactions', () => {
    const prompt = spec(
      [
        { id: 'ask', line: 'Name?' },
        { id: 'type', interaction: { event_index: 0, type: 'input', outcome: 'dispatched' } },
        { id: 'answer', line: 'Hello' },
        exitOk,
      ],
      [
        { before: 'ask', after: 'type' },
        { before: 'type', after: 'answer' },
      ],
    )

    test('matches an interaction by its scenario event and outcome', () => {
      const evidence = buildEvidence([
        ...lines('Name?'),
        { interaction: { event_index: 0 } },
        ...lines('Hello'),
      ])
      const result = checkTrace(evidence, prompt)
      expect(result.verdict).toBe('satisfied')
      expect(result.events[1]?.observations).toEqual([
        { kind: 'interaction', sequence: 1, event_index: 0, type: 'input', outcome: 'dispatched' },
      ])
    })

    test('reports a different outcome as a mismatched interaction', () => {
      const evidence = buildEvidence([
        ...lines('Name?'),
        { interaction: { event_index: 0, outcome: 'skipped' } },
        ...lines('Hello'),
      ])
      const result = checkTrace(evidence, prompt)
      expect(result.violations).toEqual([
        expect.objectContaining({
          kind: 'mismatched_observation',
          event_id: 'type',
          observation: expect.objectContaining({ event_index: 0, outcome: 'skipped' }),
        }),
      ])
    })

    test('tells a wait that ran out from a target that had exited, when the specification asks', () => {
      const waited = spec([
        { id: 'ask', line: 'Name?' },
        { id: 'type', interaction: { event_index: 0, outcome: 'skipped', skip_cause: 'wait_timed_out' } },
        exitOk,
      ])
      const timedOut = buildEvidence([
        ...lines('Name?'),
        { interaction: { event_index: 0, outcome: 'skipped', reason: 'wait_timed_out' } },
      ])
      expect(checkTrace(timedOut, waited).verdict).toBe('satisfied')
      expect(checkTrace(timedOut, waited).events[1]?.observations).toEqual([
        expect.objectContaining({ outcome: 'skipped', skip_cause: 'wait_timed_out' }),
      ])
      const exited = buildEvidence([
        ...lines('Name?'),
        { interaction: { event_index: 0, outcome: 'skipped', reason: 'the target had exited' } },
      ])
      expect(checkTrace(exited, waited).violations).toEqual([
        expect.objectContaining({
          kind: 'mismatched_observation',
          event_id: 'type',
          observation: expect.objectContaining({ skip_cause: 'target_exited' }),
        }),
      ])
    })

    test('reports an interaction the specification does not list', () => {
      const evidence = buildEvidence([
        ...lines('Name?'),
        { interaction: { event_index: 0 } },
        { interaction: { event_index: 1, type: 'resize' } },
        ...lines('Hello'),
      ])
      expect(checkTrace(evidence, prompt).violations).toEqual([
        expect.objectContaining({
          kind: 'unmatched_observation',
          observation: expect.objectContaining({ kind: 'interaction', event_index: 1 }),
        }),
      ])
    })

    test('reports a missing scenario event', () => {
      const result = checkTrace(buildEvidence(lines('Name?', 'Hello')), prompt)
      expect(result.violations).toEqual([
        expect.objectContaining({
          kind: 'count_mismatch',
          event_id: 'type',
          detail: expect.stringContaining('no scenario event 0'),
        }),
      ])
    })

    test('proves a violation when a line was read before the interaction it must follow', () => {
      const evidence = buildEvidence([...lines('Name?', 'Hello'), { interaction: { event_index: 0 } }])
      const result = checkTrace(evidence, prompt)
      expect(result.verdict).toBe('violated')
      expect(result.violations).toEqual([
        expect.objectContaining({ kind: 'order_inversion', constraint_index: 1 }),
      ])
    })

    test('leaves the order unresolved when a line that must come first was read after the interaction', () => {
      const evidence = buildEvidence([{ interaction: { event_index: 0 } }, ...lines('Name?', 'Hello')])
      const result = checkTrace(evidence, prompt)
      expect(result.verdict).toBe('unknown')
      expect(result.constraints[0]).toMatchObject({ status: 'unknown', reason: 'order_unresolved' })
      expect(result.unknown_reasons).toEqual([
        expect.objectContaining({
          reason: 'order_unresolved',
          constraint_index: 0,
          detail: expect.stringContaining('when it reads it'),
        }),
      ])
    })

    test('is unknown when the Evidence reports an interaction unknown', () => {
      const evidence = buildEvidence(lines('Name?', 'Hello'), {
        residualUnknowns: [{ dimension: 'interaction', reason: 'lost', detail: 'an outcome was lost' }],
      })
      const result = checkTrace(evidence, prompt)
      expect(result.verdict).toBe('unknown')
      expect(result.events[1]).toMatchObject({ status: 'unknown', reason: 'interaction_unknown' })
    })
  })

  test('leaves the order unresolved when the exit must come first but a line was read before it', () => {
    const afterExit = spec([{ id: 'bye', line: 'bye' }, exitOk], [{ before: 'exit', after: 'bye' }])
    const result = checkTrace(buildEvidence(lines('bye')), afterExit)
    expect(result.verdict).toBe('unknown')
    expect(result.unknown_reasons).toEqual([
      expect.objectContaining({
        reason: 'order_unresolved',
        detail: expect.stringContaining('after draining output'),
      }),
    ])
  })

  describe('file effects', () => {
    const files = spec([
      { id: 'dir', file: { path: 'root_0:.', effect: 'created' } },
      { id: 'report', file: { path: 'root_0:report.json', effect: 'created' } },
      exitOk,
    ])

    test('matches created effects', () => {
      const evidence = buildEvidence([], {
        effects: [effect('root_0:.', 'created'), effect('root_0:report.json', 'created')],
      })
      expect(checkTrace(evidence, files).verdict).toBe('satisfied')
    })

    test('does not count unchanged entries as events', () => {
      const evidence = buildEvidence([], {
        effects: [
          effect('root_0:.', 'created'),
          effect('root_0:report.json', 'created'),
          effect('root_0:old.txt', 'unchanged'),
        ],
      })
      expect(checkTrace(evidence, files).verdict).toBe('satisfied')
    })

    test('reports an effect the specification does not list', () => {
      const evidence = buildEvidence([], {
        effects: [
          effect('root_0:.', 'created'),
          effect('root_0:report.json', 'created'),
          effect('root_0:tmp', 'deleted'),
        ],
      })
      expect(checkTrace(evidence, files).violations).toEqual([
        expect.objectContaining({
          kind: 'unmatched_observation',
          observation: { kind: 'file', path: 'root_0:tmp', effect: 'deleted' },
        }),
      ])
    })

    test('reports a file that already existed as not created', () => {
      const evidence = buildEvidence([], {
        effects: [effect('root_0:.', 'created'), effect('root_0:report.json', 'unchanged')],
      })
      expect(checkTrace(evidence, files).violations).toEqual([
        expect.objectContaining({
          kind: 'count_mismatch',
          event_id: 'report',
          detail: expect.stringContaining('was unchanged'),
        }),
      ])
    })

    test('reports a different effect on the path as a mismatched effect', () => {
      const evidence = buildEvidence([], {
        effects: [effect('root_0:.', 'created'), effect('root_0:report.json', 'deleted')],
      })
      expect(checkTrace(evidence, files).violations).toEqual([
        expect.objectContaining({ kind: 'mismatched_observation', event_id: 'report' }),
      ])
    })

    test('is unknown when the effect on the path is unknown', () => {
      const unknownEffect = {
        path: 'root_0:report.json',
        status: 'unknown',
        // Both checkpoints list it with the same size, but one digest is missing: changed or not is unknown.
        before: { type: 'file', size: 1, sha256: null, mode: '0644' },
        after: { type: 'file', size: 1, sha256: 'a'.repeat(64), mode: '0644' },
        reason: 'digest_unavailable',
      } as const
      const evidence = buildEvidence([], { effects: [effect('root_0:.', 'created'), unknownEffect] })
      const result = checkTrace(evidence, files)
      expect(result.verdict).toBe('unknown')
      expect(result.events[1]).toMatchObject({ status: 'unknown', reason: 'file_effect_unknown' })
      expect(result.unknown_reasons.map((unknown) => unknown.reason)).toEqual([
        'filesystem_incomplete',
        'file_effect_unknown',
      ])
    })

    test('is unknown when an expected entry is absent from a root that was not enumerated completely', () => {
      const evidence = buildEvidence([], {
        effects: [effect('root_0:.', 'created')],
        rootExhausted: false,
        residualUnknowns: [
          { dimension: 'filesystem', reason: 'enumeration_incomplete', detail: 'root_0 was cut' },
        ],
      })
      const result = checkTrace(evidence, files)
      expect(result.verdict).toBe('unknown')
      expect(result.events[1]).toMatchObject({ status: 'unknown', reason: 'filesystem_incomplete' })
    })

    test('is unknown when the scenario selected no paths', () => {
      const result = checkTrace(buildEvidence([]), files)
      expect(result.verdict).toBe('unknown')
      expect(result.unknown_reasons).toEqual([expect.objectContaining({ reason: 'filesystem_not_observed' })])
    })

    test('is unknown for a root the capture does not have', () => {
      const other = spec([{ id: 'x', file: { path: 'root_1:x', effect: 'created' } }, exitOk])
      const result = checkTrace(buildEvidence([], { effects: [] }), other)
      expect(result.events[0]).toMatchObject({ status: 'unknown', reason: 'filesystem_root_not_observed' })
    })
  })

  test('reports at most 100 violations and counts the rest', () => {
    const evidence = buildEvidence([
      { chunk: Array.from({ length: 150 }, (_, index) => `noise ${index}\r\n`).join('') },
    ])
    const result = checkTrace(evidence, spec([exitOk]))
    expect(result.violations).toHaveLength(100)
    expect(result.violations_omitted).toBe(50)
    expect(result.verdict).toBe('violated')
  })
})
