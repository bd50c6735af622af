import { describe, expect, test } from 'vitest'
import {
  checkTrace,
  formatTraceResult,
  parseTraceSpec,
  TRACE_SPEC_FORMAT,
} from '../../../../src/compare/trace/index.js'
import { buildEvidence } from '../../../helpers/build-evidence.js'

const spec = parseTraceSpec({
  format: TRACE_SPEC_FORMAT,
  format_version: 1,
  events: [
    { id: 'start', line: 'start' },
    { id: 'done', line: 'done' },
    { id: 'exit', exit: { reason: 'exited', code: 0 } },
  ],
  order: [{ before: 'start', after: 'done' }],
})

describe('formatTraceResult', () => {
  test('lists the verdict, each event and each constraint of a satisfied trace', () => {
    const text = formatTraceResult(checkTrace(buildEvidence([{ chunk: 'start\r\ndone\r\n' }]), spec))
    expect(text).toEqual([
      'Trace satisfied: 0 violations, 0 unknown reasons.',
      'Observed: 2 lines, 0 interactions, 1 exit, 0 file effects.',
      'Events (3):',
      '  start  line "start": 1 of 1, matched',
      '  done   line "done": 1 of 1, matched',
      '  exit   exit exited code 0: 1 of 1, matched',
      'Order (1):',
      '  order[0] start before done: satisfied, 1 pair checked',
    ])
  })

  test('locates violations and names unknown reasons', () => {
    const evidence = buildEvidence([
      { chunk: 'done\r\nstart\r\nextra\r\n' },
      { omitted: { count: 1, bytes: 5 } },
    ])
    const text = formatTraceResult(checkTrace(evidence, spec))
    expect(text.slice(0, 6)).toEqual([
      'Trace violated: 2 violations, 1 unknown reason.',
      'Violations:',
      '  - unmatched: line "extra" (sequence 0, chunk 0 byte 13) is not accepted by any event of the specification',
      '  - order[0]: start must come before done, but line "done" (sequence 0, chunk 0 byte 0) was observed before line "start" (sequence 0, chunk 0 byte 6)',
      'Unknown:',
      expect.stringMatching(/^ {2}- terminal_output_omitted: 1 PTY chunk \(5 bytes\)/) as unknown,
    ])
    expect(text).toContain('  start  line "start": 1 of 1, unknown (terminal_output_omitted)')
    expect(text.every((line) => !line.includes('\u001b'))).toBe(true)
  })

  test('counts violations that were not listed', () => {
    const chunk = Array.from({ length: 120 }, (_, index) => `line ${index}\r\n`).join('')
    const text = formatTraceResult(checkTrace(buildEvidence([{ chunk }]), spec))
    expect(text[0]).toBe('Trace violated: 122 violations, 0 unknown reasons.')
    expect(text).toContain('  … and 22 more violations, not listed')
  })
})
