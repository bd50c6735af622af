import { describe, expect, test } from 'vitest'
import { suggestRedactions } from '../../../src/compare/hints/varying-text.js'

describe('suggestRedactions', () => {
  test('names the varying number and proposes a redaction anchored on the text before it', () => {
    const hint = suggestRedactions(
      'Your name? Ada\r\nHello Ada, your lucky number is 48213.\r\nBye.\r\n',
      'Your name? Ada\r\nHello Ada, your lucky number is 7.\r\nBye.\r\n',
    )
    expect(hint?.spans).toEqual([
      { line: 2, before: 'Hello Ada, your lucky number is ', first: '48213', second: '7' },
    ])
    expect(hint?.redactions).toEqual([
      { regex: 'your lucky number is (?<redacted>\\d+)', replacement: '[NUMBER]' },
    ])
    expect(hint?.scenario).toBe(
      '"normalization": {"redactions":[{"regex":"your lucky number is (?<redacted>\\\\d+)","replacement":"[NUMBER]"}]}',
    )
  })

  test('proposes nothing when the lines differ in number or the texts are equal', () => {
    expect(suggestRedactions('a\nb\n', 'a\n')).toBeUndefined()
    expect(suggestRedactions('same', 'same')).toBeUndefined()
  })
})
