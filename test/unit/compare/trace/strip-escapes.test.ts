import { describe, expect, test } from 'vitest'
import { stripEscapes } from '../../../../src/compare/trace/strip-escapes.js'

describe('stripEscapes', () => {
  test.for<[string, string, string]>([
    ['plain text', 'worker a: done', 'worker a: done'],
    ['SGR colours', '\u001b[1;32mdone\u001b[0m', 'done'],
    ['private-mode CSI', '\u001b[?25lhidden cursor\u001b[?25h', 'hidden cursor'],
    ['erase in line before text', '\u001b[2K\u001b[1Gprogress', 'progress'],
    ['CSI with an intermediate byte', 'a\u001b[1 qb', 'ab'],
    ['OSC title ended by BEL', '\u001b]0;my title\u0007prompt', 'prompt'],
    ['OSC 8 hyperlink ended by ST', '\u001b]8;;https://example.test\u001b\\link\u001b]8;;\u001b\\', 'link'],
    ['DCS string', 'a\u001bP1$r0m\u001b\\b', 'ab'],
    ['charset designation (three characters)', '\u001b(Bascii', 'ascii'],
    ['two-character escapes', '\u001b7saved\u001b8', 'saved'],
    ['8-bit CSI', '\u009b31mred\u009b0m', 'red'],
    ['8-bit OSC ended by 8-bit ST', '\u009d0;title\u009ctext', 'text'],
    ['unterminated OSC runs to the end', 'text\u001b]0;never ends', 'text'],
    ['lone ESC at the end', 'text\u001b', 'text'],
    ['ESC before a control character drops only the ESC', 'a\u001b\u001b[0mb', 'ab'],
    ['other control characters are kept', 'tab\there\rbell\u0007', 'tab\there\rbell\u0007'],
    ['non-ASCII text is kept', 'naïve ✓ 日本', 'naïve ✓ 日本'],
  ])('removes %s', ([, input, expected]) => {
    expect(stripEscapes(input)).toBe(expected)
  })

  test('returns the same string when there is nothing to remove', () => {
    const text = 'all done'
    expect(stripEscapes(text)).toBe(text)
  })
})
