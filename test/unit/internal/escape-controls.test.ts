import { describe, expect, test } from 'vitest'
import {
  escapeControlCharacters,
  escapeText,
  quoteJson,
  quoteText,
  showName,
} from '../../../src/internal/escape-controls.js'

describe('escapeControlCharacters', () => {
  test.for([
    ['an OSC title sequence', '\u001b]0;PWNED\u0007{', '\\e]0;PWNED\\x07{'],
    ['a carriage return that would overwrite the line', 'ok\rFAIL', 'ok\\rFAIL'],
    ['DEL', 'a\u007fb', 'a\\x7fb'],
    ['an 8-bit CSI (C1)', 'a\u009b31mb', 'a\\u009b31mb'],
    ['NUL and backspace', '\u0000\u0008', '\\x00\\x08'],
    ['a bidi override that reorders the line', 'abc\u202edef', 'abc\\u202edef'],
    ['zero-width characters and the BOM', 'a\u200bb\u2060c\ufeff', 'a\\u200bb\\u2060c\\ufeff'],
    ['line and paragraph separators', 'a\u2028b\u2029', 'a\\u2028b\\u2029'],
    ['an invisible tag character beyond the BMP', 'x\u{e0041}', 'x\\u{e0041}'],
  ] as const)('makes %s visible', ([, text, expected]) => {
    expect(escapeControlCharacters(text)).toBe(expected)
  })

  test('keeps newlines, tabs, backslashes and printable text, including non-ASCII', () => {
    const text = 'line one\n\tline two: ünïcödé ─ 😀 C:\\dir'
    expect(escapeControlCharacters(text)).toBe(text)
  })

  test('is idempotent, so a message whose values are already quoted can pass through it again', () => {
    const once = escapeControlCharacters(`value ${quoteText('\u001b[31mred\n')}`)
    expect(escapeControlCharacters(once)).toBe(once)
  })
})

describe('quoteText', () => {
  test('quotes a value on one line: newline, tab, quote and backslash escaped too', () => {
    expect(quoteText('a\nb\t"c"\\d\u001b\u0085')).toBe('"a\\nb\\t\\"c\\"\\\\d\\e\\u0085"')
  })

  test('never shows two different texts the same: a carriage return and a printed backslash and r', () => {
    expect(quoteText('x\ry')).toBe('"x\\ry"')
    expect(quoteText('x\\ry')).toBe('"x\\\\ry"')
  })
})

describe('escapeText', () => {
  test('keeps the lines of a block, escapes controls and doubles a literal backslash', () => {
    expect(escapeText('C:\\dir\r\nnext\u001b[2K')).toBe('C:\\\\dir\\r\nnext\\e[2K')
  })
})

describe('quoteJson', () => {
  test('quotes every string and key of a value by the one rule', () => {
    expect(quoteJson({ query: 'cursor', reply: '\u001b[1;4R', n: [1, null, true] })).toBe(
      '{"query":"cursor","reply":"\\e[1;4R","n":[1,null,true]}',
    )
  })
})

describe('showName', () => {
  test.for([
    ['a plain path', 'root_0:notes/a b.txt', 'root_0:notes/a b.txt'],
    ['a newline that would fake a line', 'root_0:a\nb', '"root_0:a\\nb"'],
    ['a quote, so a quoted form is never read as plain', 'say "hi"', '"say \\"hi\\""'],
    ['a backslash', 'C:\\x', '"C:\\\\x"'],
    ['a zero-width space that would make two names look alike', 'a\u200bb', '"a\\u200bb"'],
  ] as const)('shows %s', ([, name, shown]) => {
    expect(showName(name)).toBe(shown)
  })
})
