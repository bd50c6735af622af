import { describe, expect, test } from 'vitest'
import { parseExpectedLine } from '../../../src/markdown/expected-line.js'
import { alignLines, lineMatches, linePattern, type LinePattern } from '../../../src/markdown/match-lines.js'
import type { ExpectedLine } from '../../../src/markdown/parse-block.js'

function patterns(...lines: string[]): LinePattern[] {
  return lines.map((text, index) => {
    const parsed = parseExpectedLine(text)
    const line = { number: index + 1, start: 0, end: 0, text }
    const expected: ExpectedLine =
      parsed.kind === 'lines'
        ? { kind: 'lines', line }
        : { kind: 'line', line, segments: parsed.kind === 'line' ? parsed.segments : [] }
    return linePattern(expected)
  })
}

function matches(expected: string, actual: string): boolean {
  const [pattern] = patterns(expected)
  return pattern?.kind === 'line' && lineMatches(pattern.parts, actual)
}

describe('lineMatches', () => {
  test.each([
    ['[..]b', 'abab', true],
    ['a[..]', 'a', true],
    ['Took [..]s', 'Took 1.2s', true],
    ['Took [..]s', 'Took 1.2ms!', false],
    ['literal [..] printed', 'literal [..] printed', true],
    ['Name? {{Ada}}{Enter}', 'Name? Ada', true],
    ['Password: {{$PW}}{Enter}', 'Password:', true],
    ['Password: {{$PW}}{Enter}', 'Password: ****', true],
    ['Password: {{$PW}}{Enter}', 'Password: hunter2', false],
    ['trailing   ', 'trailing', true],
    ['in [CWD]', 'in [CWD]', true],
    ['in [CWD]', 'in /tmp/x', false],
  ])('%j against %j: %s', (expected, actual, result) => {
    expect(matches(expected, actual)).toBe(result)
  })
})

describe('alignLines', () => {
  test('... takes any lines, even before a line with a wildcard (which snapbox cannot)', () => {
    expect(alignLines(patterns('start', '...', '[..]end'), ['start', 'a', 'b', 'the end']).equal).toBe(true)
    expect(alignLines(patterns('...'), []).equal).toBe(true)
    expect(alignLines(patterns('a', '...'), ['b']).equal).toBe(false)
  })

  test('the diff holds the fewest lines: a changed line is one - and one +', () => {
    const { equal, steps } = alignLines(patterns('one', 'TWO', 'three'), ['one', 'two', 'three'])
    expect(equal).toBe(false)
    expect(steps).toEqual([
      { op: 'match', expected: 0, actual: 0 },
      { op: 'delete', expected: 1 },
      { op: 'insert', actual: 1 },
      { op: 'match', expected: 2, actual: 2 },
    ])
  })

  test('lines the terminal shows beyond the block are inserted at their place', () => {
    const { steps } = alignLines(patterns('a', 'c'), ['a', 'b', 'c', 'd'])
    expect(steps.filter((step) => step.op === 'insert')).toEqual([
      { op: 'insert', actual: 1 },
      { op: 'insert', actual: 3 },
    ])
  })
})
