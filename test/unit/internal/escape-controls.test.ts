import { describe, expect, test } from 'vitest'
import { escapeControlCharacters } from '../../../src/internal/escape-controls.js'

describe('escapeControlCharacters', () => {
  test.for([
    ['an OSC title sequence', '\u001b]0;PWNED\u0007{', '\\e]0;PWNED\\x07{'],
    ['a carriage return that would overwrite the line', 'ok\rFAIL', 'ok\\rFAIL'],
    ['DEL', 'a\u007fb', 'a\\x7fb'],
    ['an 8-bit CSI (C1)', 'a\u009b31mb', 'a\\u009b31mb'],
    ['NUL and backspace', '\u0000\u0008', '\\x00\\x08'],
  ] as const)('makes %s visible', ([, text, expected]) => {
    expect(escapeControlCharacters(text)).toBe(expected)
  })

  test('keeps newlines, tabs and printable text, including non-ASCII', () => {
    const text = 'line one\n\tline two: ünïcödé ─ 😀'
    expect(escapeControlCharacters(text)).toBe(text)
  })

  test('is idempotent, so text escaped twice reads the same', () => {
    const once = escapeControlCharacters('\u001b[31mred\u001b[0m')
    expect(escapeControlCharacters(once)).toBe(once)
  })
})
