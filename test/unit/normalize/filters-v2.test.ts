import { describe, expect, test } from 'vitest'
import {
  FILTER_NORMALIZATION_VERSION,
  FILTER_WINDOW_CHARACTERS,
  FilterRule,
  FILTERS_V1,
} from '../../../src/normalize/filters.js'
import { FILTERS_V2 } from '../../../src/normalize/filters-v2.js'
import { normalizeDetached } from '../../../src/normalize/stream-normalizer.js'
import { FILTER_NAMES } from '../../../src/scenario/schema.js'

type FilterName = (typeof FILTER_NAMES)[number]

const v2 = (name: FilterName, text: string) => normalizeDetached([new FilterRule(name, FILTERS_V2)], text)
const v1 = (name: FilterName, text: string) => normalizeDetached([new FilterRule(name, FILTERS_V1)], text)

/** Near-misses that stay whatever the filter: versions, addresses, fractions, years and ordinary names. */
const NEAR_MISSES = [
  'v1.2.3',
  '10.0.0.1',
  '3/4',
  '2026',
  'tmp',
  'tmp.txt',
  'tmpfile',
  '/tmp/build',
  'go-build',
  'pre-commit',
  'build-output',
]

describe('builtin-filters-v2', () => {
  test('is one version with both of its changes: dates and temporary names, and Vitest 5’s share list', () => {
    expect(FILTER_NORMALIZATION_VERSION).toBe('builtin-filters-v2')
    expect(v2('timestamps', 'on 12/7/2026')).toBe('on [TIMESTAMP]')
    expect(v2('temp_names', '/tmp/report-mFxYVi')).toBe('/tmp/report-[TEMP_NAME]')
    expect(v2('durations', 'Duration 475ms (tests 37%, transform 34%, worker 7%)')).toBe(
      'Duration [DURATION]',
    )
  })

  describe('temp_names', () => {
    test.for([
      ['/tmp/report-mFxYVi', '/tmp/report-[TEMP_NAME]'],
      ['report-a1b2c3 written', 'report-[TEMP_NAME] written'],
      ['[TMPDIR]/rea-machines-AbC123/out.json', '[TMPDIR]/rea-machines-[TEMP_NAME]/out.json'],
      ['cache_x9Y8z7', 'cache_[TEMP_NAME]'],
      ['results in /tmp/tmpbfhrf7w2.json', 'results in /tmp/[TEMP_NAME].json'],
      ['tmpbfhrf7w2', '[TEMP_NAME]'],
      ['/tmp/tmp_3kx9a2q', '/tmp/[TEMP_NAME]'],
      ['/tmp/tmp.AbC123xyZ0', '/tmp/[TEMP_NAME]'],
      ['tmp.AbC123xyZ0', '[TEMP_NAME]'],
      ['WORK=/tmp/go-build2871636514', 'WORK=/tmp/[TEMP_NAME]'],
      ['go-build12/b001/exe', '[TEMP_NAME]/b001/exe'],
    ] as const)('%j becomes %j', ([input, output]) => {
      expect(v2('temp_names', input)).toBe(output)
    })

    test.for([
      ...NEAR_MISSES,
      // A six-letter word after a dash, lower case only: not random.
      'feature-branch',
      'report-mfxyvi',
      // Digits only: a number, not a random name.
      'order-123456',
      // A file name with an extension is a file, not a mkdtemp folder.
      'invoice-2026Q4.pdf',
      'tmp.AbC123xyZ0x',
      'tmpabcdefghi',
    ])('keeps %j', (input) => {
      expect(v2('temp_names', input)).toBe(input)
    })
  })

  describe('timestamps', () => {
    test.for([
      ['Generated 12/7/2026', 'Generated [TIMESTAMP]'],
      ['07/12/2026.', '[TIMESTAMP].'],
      ['Generated Monday, December 7, 2026', 'Generated [TIMESTAMP]'],
      ['December 7, 2026', '[TIMESTAMP]'],
      ['Mon, Dec 7, 2026', '[TIMESTAMP]'],
      ['7 December 2026', '[TIMESTAMP]'],
      ['Stand: 7.12.2026', 'Stand: [TIMESTAMP]'],
      ['07.12.2026', '[TIMESTAMP]'],
      ['2026-12-07', '[TIMESTAMP]'],
      ['%x 12/07/26', '%x [TIMESTAMP]'],
      ['Mon Dec 07 2026', '[TIMESTAMP]'],
      ['-rw-r--r-- 1 ada ada 0 Dec  4  2025 a', '-rw-r--r-- 1 ada ada 0 [TIMESTAMP] a'],
      ['12/7/2026, 5:37:58 PM', '[TIMESTAMP], [TIMESTAMP]'],
      // The longer v1 forms still win over a date they begin with.
      ['Mon Dec 07 2026 17:37:58 GMT+0000 (Coordinated Universal Time)', '[TIMESTAMP]'],
      ['Fri Dec  4 17:37:58 UTC 2026', '[TIMESTAMP]'],
      ['-rw-r--r-- 1 ada ada 0 Dec  4 17:37 a', '-rw-r--r-- 1 ada ada 0 [TIMESTAMP] a'],
    ] as const)('%j becomes %j', ([input, output]) => {
      expect(v2('timestamps', input)).toBe(output)
    })

    test.for([
      ...NEAR_MISSES,
      '12:30',
      '1.2.3',
      '10/12',
      '2026.12.04',
      '13/13/2026',
      '32.12.2026',
      '7.13.2026',
      'v7.12.2026',
      '7.12.2026.1',
      '12/7/2026/x',
    ])('keeps %j', (input) => {
      expect(v2('timestamps', input)).toBe(input)
    })
  })

  test('keeps every v1 replacement of the filters it did not change, and of these two as v1 wrote them', () => {
    for (const text of [
      'took 4.898ms',
      'id 3f1e6f0c-2b8e-4d4a-9c1e-7a2b3c4d5e6f.',
      'commit 1f0c2d9e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d',
      'Fri, 04 Dec 2026 17:37:58 GMT',
      '[04/Dec/2026 17:37:58] "GET / HTTP/1.1"',
      'Start at 17:37:58',
      '/tmp/tmp.AbC123xyZ0',
      'tmpab3_x9k1 made',
    ]) {
      for (const name of FILTER_NAMES) {
        expect(v2(name, text)).toBe(v1(name, text))
      }
    }
  })

  test('v1 stays as it was: dates without a time and mkdtemp names are not v1 matches', () => {
    expect(v1('timestamps', 'Generated 12/7/2026')).toBe('Generated 12/7/2026')
    expect(v1('temp_names', '/tmp/report-mFxYVi')).toBe('/tmp/report-mFxYVi')
  })

  test('never matches more than the window it holds back', () => {
    for (const name of FILTER_NAMES) {
      const rule = new FilterRule(name, FILTERS_V2)
      for (const run of [
        '1'.repeat(2000),
        'a1'.repeat(1000),
        'a-'.repeat(1000),
        '1/'.repeat(1000),
        '1.'.repeat(1000),
      ]) {
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
