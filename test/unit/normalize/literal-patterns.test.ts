import { describe, expect, test } from 'vitest'
import {
  applyLiteralPatterns,
  LITERAL_REPLACEMENTS_VERSION,
  type LiteralPattern,
} from '../../../src/normalize/literal-patterns.js'
import { createChunkNormalizer } from '../../../src/normalize/normalize-chunk.js'

const one = (text: string, pattern: string, replacement: string): string =>
  applyLiteralPatterns(text, [{ pattern, replacement }])

describe('applyLiteralPatterns', () => {
  test('has a frozen version', () => {
    expect(LITERAL_REPLACEMENTS_VERSION).toBe('literal-replacements-v1')
  })

  test.for([
    ['$&', 'took <$&> ms'],
    ['$$', 'took <$$> ms'],
    ['$1', 'took <$1> ms'],
    ["$'", "took <$'> ms"],
    ['$`', 'took <$`> ms'],
    ['$<name>', 'took <$<name>> ms'],
  ])('inserts the dollar sequence %j as written', ([sequence, expected]) => {
    expect(one('took 35 ms', '35', `<${sequence!}>`)).toBe(expected)
  })

  test('finds the pattern literally, with no regular-expression meaning', () => {
    expect(one('a.b a+b (x)', '.', '!')).toBe('a!b a+b (x)')
    expect(one('a.b a+b (x)', '(x)', 'y')).toBe('a.b a+b y')
    expect(one('a*b', '*', '\\')).toBe('a\\b')
  })

  test('replaces every occurrence', () => {
    expect(one('id=1 id=2 id=3', 'id=', '#')).toBe('#1 #2 #3')
  })

  test('matches without overlap, from left to right', () => {
    expect(one('aaa', 'aa', 'X')).toBe('Xa')
    expect(one('aaaa', 'aa', 'X')).toBe('XX')
    expect(one('abababa', 'aba', 'X')).toBe('XbX')
  })

  test('matches an empty pattern before every character and at the end', () => {
    expect(one('ab', '', 'X')).toBe('XaXbX')
    expect(one('', '', 'X')).toBe('X')
    expect(one('ab', '', '$&')).toBe('$&a$&b$&')
  })

  test('places empty-pattern matches between code points, never inside a surrogate pair', () => {
    expect(one('a😀b', '', '|')).toBe('|a|😀|b|')
    expect(one('😀', '', '|')).toBe('|😀|')
  })

  test('finds a pattern that is itself a surrogate pair', () => {
    expect(one('a😀b😀', '😀', ':)')).toBe('a:)b:)')
  })

  test('leaves empty input empty for a non-empty pattern', () => {
    expect(one('', 'a', 'X')).toBe('')
  })

  test('returns the input for no patterns', () => {
    expect(applyLiteralPatterns('abc', [])).toBe('abc')
  })

  test('applies patterns in order, each to the previous output', () => {
    const patterns: LiteralPattern[] = [
      { pattern: 'a', replacement: 'b' },
      { pattern: 'b', replacement: 'c' },
    ]
    expect(applyLiteralPatterns('ab', patterns)).toBe('cc')
    expect(applyLiteralPatterns('ab', patterns.toReversed())).toBe('bc')
  })

  test('can delete text with an empty replacement', () => {
    expect(one('a, b, c', ', ', '')).toBe('abc')
  })
})

describe('createChunkNormalizer with patterns', () => {
  test('applies patterns before ports, so a pattern sees the original port', () => {
    const normalize = createChunkNormalizer({
      patterns: [{ pattern: ':8080', replacement: ':$&' }],
      ports: true,
    })
    expect(normalize('localhost:8080 localhost:9090')).toBe('localhost:$& localhost:<port>')
  })

  test('normalizes a port that a pattern produced', () => {
    const normalize = createChunkNormalizer({
      patterns: [{ pattern: 'PORT_NUMBER', replacement: 'port' }],
      ports: true,
    })
    expect(normalize('PORT_NUMBER 8080')).toBe('port <port>')
  })

  test('keeps ports when ports is false', () => {
    const normalize = createChunkNormalizer({ patterns: [{ pattern: 'x', replacement: 'y' }], ports: false })
    expect(normalize('x localhost:8080')).toBe('y localhost:8080')
  })
})
