import { describe, expect, test } from 'vitest'
import { FILTER_TOKENS, FilterRule } from '../../../src/normalize/filters.js'
import { FILTERS_V2 } from '../../../src/normalize/filters-v2.js'
import { normalizeDetached } from '../../../src/normalize/stream-normalizer.js'
import { FILTER_NAMES } from '../../../src/scenario/schema.js'

const measured = (text: string) => normalizeDetached([new FilterRule('measured_durations', FILTERS_V2)], text)
const durations = (text: string) => normalizeDetached([new FilterRule('durations', FILTERS_V2)], text)

describe('measured_durations', () => {
  test('is a new name after the others, with the token of durations', () => {
    expect(FILTER_NAMES.at(-1)).toBe('measured_durations')
    expect(FILTER_NAMES.slice(0, 5)).toEqual(['uuids', 'timestamps', 'durations', 'hex_ids', 'temp_names'])
    expect(FILTER_TOKENS.measured_durations).toBe('[DURATION]')
  })

  test.for([
    ['took 4.898ms', 'took [DURATION]'],
    ['took 1.2 s', 'took [DURATION]'],
    ['0.013s', '[DURATION]'],
    ['1,5 s', '[DURATION]'],
    ['0.000s', '[DURATION]'],
    // unittest and pytest
    ['Ran 3 tests in 0.013s', 'Ran 3 tests in [DURATION]'],
    ['===== 2 passed in 0.01s =====', '===== 2 passed in [DURATION] ====='],
    // node --test: the test line and the TAP key
    ['\x1b[32m✔ adds \x1b[90m(1.755143ms)\x1b[39m', '\x1b[32m✔ adds \x1b[90m([DURATION])\x1b[39m'],
    ['# duration_ms 110.2', '# duration_ms [DURATION]'],
    ['duration_ms: 45.123', 'duration_ms: [DURATION]'],
    ['"elapsed": 12.5', '"elapsed": [DURATION]'],
    ['Duration: 12.5', 'Duration: [DURATION]'],
    // Jest and Vitest summaries, with a colour sequence between number and unit, and Vitest 5's share list
    ['Time:        0.512 s', 'Time:        [DURATION]'],
    ['Duration  1.23s (transform 30ms)', 'Duration  [DURATION] (transform 30ms)'],
    ['\x1b[1m3.5\x1b[2mms', '\x1b[1m[DURATION]\x1b[2m'],
    ['Duration 1.75s (tests 37%, transform 34%)', 'Duration [DURATION]'],
    // a compound whose last part was measured
    ['1m 3.4s', '[DURATION]'],
    ['2.5 minutes', '[DURATION]'],
  ] as const)('%j becomes %j', ([input, output]) => {
    expect(measured(input)).toBe(output)
  })

  test.for([
    // configured values: whole numbers stay, so a changed back-off or timeout still fails
    'retrying in 5s',
    'timeout 10s',
    'sleep 2',
    'duration_ms 110',
    'Duration  475ms',
    '2m3s',
    '1h',
    // numbers that are not durations
    'v1.2.3',
    '10.0.0.1',
    '3.5.0',
    '1.2.3-beta',
    '1.2.3s',
    'v1.5s',
    '2026',
    '1.5',
    '3/4',
    // du -sh and sizes: a capital M is megabytes, not minutes
    '1.5M\t.',
    '2.5 MB',
    '1.5 MS',
    'x1.5s',
  ])('%j stays', (input) => {
    expect(measured(input)).toBe(input)
  })

  test('matches a subset of what durations matches, where both agree', () => {
    for (const text of ['took 4.898ms', 'Ran 3 tests in 0.013s', '# duration_ms 110.2', '1m 3.4s']) {
      expect(measured(text)).toBe(durations(text))
    }
    expect(durations('retrying in 5s')).toBe('retrying in [DURATION]')
  })
})
