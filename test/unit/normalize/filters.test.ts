import { describe, expect, test } from 'vitest'
import { FILTER_WINDOW_CHARACTERS, FILTERS_V1, FilterRule } from '../../../src/normalize/filters.js'
import { FILTERS_V2 } from '../../../src/normalize/filters-v2.js'
import { normalizeDetached } from '../../../src/normalize/stream-normalizer.js'
import { FILTER_NAMES } from '../../../src/scenario/schema.js'

type Case = readonly [
  name: (typeof FILTER_NAMES)[number],
  replaced: readonly (readonly [string, string])[],
  kept: readonly string[],
]

const filtered = (name: (typeof FILTER_NAMES)[number], text: string) =>
  normalizeDetached([new FilterRule(name, FILTERS_V1)], text)

describe('FilterRule', () => {
  describe.each<Case>([
    [
      'durations',
      [
        ['took 4.898ms', 'took [DURATION]'],
        ['1.2 s', '[DURATION]'],
        ['Ran 1 test in 0.000s', 'Ran 1 test in [DURATION]'],
        ['Duration 202ms (transform 20ms)', 'Duration [DURATION] (transform [DURATION])'],
        ['ℹ duration_ms 110.2', 'ℹ duration_ms [DURATION]'],
        ['"elapsed": 12', '"elapsed": [DURATION]'],
        ['(1 test)\x1b[32m 3\x1b[2mms\x1b[22m', '(1 test)\x1b[32m [DURATION]\x1b[2m\x1b[22m'],
        ['done in 1m 2.3s', 'done in [DURATION]'],
        ['2 minutes', '[DURATION]'],
        ['\x1b[1m12ms\x1b[0m', '\x1b[1m[DURATION]\x1b[0m'],
        // Vitest 5's summary: the phases' shares, their names and order change from run to run.
        ['   Duration  475ms (tests 37%, transform 34%, import 22%, worker 7%)', '   Duration  [DURATION]'],
        [
          '   Duration  1.01s (tests 53%, setup 41%, transform 4%, worker 1%, import 1%)',
          '   Duration  [DURATION]',
        ],
        [
          '\x1b[2m   Duration \x1b[22m 456ms\x1b[2m (tests 51%, import 29%, transform 12%, worker 8%)\x1b[22m',
          '\x1b[2m   Duration \x1b[22m [DURATION]\x1b[2m\x1b[22m',
        ],
        ['done in 1m 2.3s (build 90%, lint 10%)', 'done in [DURATION]'],
        // Vitest 4's summary names each phase's time.
        [
          '   Duration  355ms (transform 23ms, setup 0ms, import 46ms, tests 36ms, environment 0ms)',
          '   Duration  [DURATION] (transform [DURATION], setup [DURATION], import [DURATION], tests [DURATION], environment [DURATION])',
        ],
      ],
      [
        'v1.2s',
        '3 items',
        '100%',
        'x86_64',
        '5m',
        '80x24',
        '128 MB',
        'v1.2.3',
        'sha256sum',
        '3 secrets',
        '\x1b[22m\x1b[39m',
        '(tests 37%, transform 34%)',
        'coverage (lines 80%, branches 75%)',
      ],
    ],
    [
      'timestamps',
      [
        ['2026-12-04T17:37:58.123Z', '[TIMESTAMP]'],
        ['on 2026-12-04 17:37:58+01:00.', 'on [TIMESTAMP].'],
        ['Fri Dec  4 17:37:58 UTC 2026', '[TIMESTAMP]'],
        ['Date:   Fri Dec 4 17:37:58 2026 +0000', 'Date:   [TIMESTAMP]'],
        ['Fri, 04 Dec 2026 17:37:58 GMT', '[TIMESTAMP]'],
        ['Fri Dec 04 2026 17:37:58 GMT+0000 (Coordinated Universal Time)', '[TIMESTAMP]'],
        ['[04/Dec/2026 17:37:58] "GET / HTTP/1.1"', '[[TIMESTAMP]] "GET / HTTP/1.1"'],
        ['-rw-r--r-- 1 ada ada 0 Dec  4 17:37 a', '-rw-r--r-- 1 ada ada 0 [TIMESTAMP] a'],
        ['Start at 17:37:58', 'Start at [TIMESTAMP]'],
      ],
      ['12:30', 'localhost:8080', 'src/a.ts:42:7', '1.2.3', '10/12', '2026.12.04', 'a.ts:12:30:45:9'],
    ],
    [
      'uuids',
      [
        ['id 3f1e6f0c-2b8e-4d4a-9c1e-7a2b3c4d5e6f.', 'id [UUID].'],
        ['3F1E6F0C-2B8E-4D4A-9C1E-7A2B3C4D5E6F', '[UUID]'],
      ],
      ['3f1e6f0c-2b8e-4d4a-9c1e-7a2b3c4d5e6f0', 'x3f1e6f0c-2b8e-4d4a-9c1e-7a2b3c4d5e6f'],
    ],
    [
      'hex_ids',
      [
        ['commit 1f0c2d9e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d', 'commit [HEX_ID]'],
        ['abc1234..def5678', '[HEX_ID]..[HEX_ID]'],
        ['at 0x7ffd5e3c', 'at [HEX_ID]'],
      ],
      ['facade decade', 'deadbeefcafe', '1234567', 'abc123', 'v1a2b3c4d', '3f1e6f0c-2b8e'],
    ],
    [
      'temp_names',
      [
        ['/tmp/tmp.AbC123xyZ0', '/tmp/[TEMP_NAME]'],
        ['tmpab3_x9k1 made', '[TEMP_NAME] made'],
      ],
      ['tmp.txt', 'tmpfile', '/tmp/build', 'tmp.AbC123xyZ0x'],
    ],
  ])('%s', (name, replaced, kept) => {
    test.each(replaced.map(([input, output]) => [input, output] as [string, string]))(
      '%j becomes %j',
      (input, output) => {
        expect(filtered(name, input)).toBe(output)
      },
    )
    test.each([...kept])('keeps %j', (input) => {
      expect(filtered(name, input)).toBe(input)
    })
  })

  test('never matches more than the window it holds back', () => {
    // Every quantifier is bounded: a long run of anything a filter reads stays undecided only near the end.
    for (const [name, definitions] of FILTER_NAMES.flatMap((name) => [
      [name, FILTERS_V1] as const,
      [name, FILTERS_V2] as const,
    ])) {
      const rule = new FilterRule(name, definitions)
      for (const run of ['1'.repeat(2000), 'a1'.repeat(1000), '1 h '.repeat(500), 'x'.repeat(2000)]) {
        for (let from = 0; from < run.length; from += 97) {
          const match = rule.find(run, from, run.length)
          if (match !== undefined) {
            expect(match.end - match.start).toBeLessThan(FILTER_WINDOW_CHARACTERS - 2)
          }
        }
      }
    }
  })
})
