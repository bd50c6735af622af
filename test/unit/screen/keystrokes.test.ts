import { describe, expect, test } from 'vitest'
import { NAMED_KEYS } from '../../../src/scenario/key-names.js'
import { decodeKeystrokes, encodeKeys } from '../../../src/screen/keys.js'

const text = (value: string) => ({ kind: 'text', text: value })
const key = (name: string) => ({ kind: 'key', name })

describe('decodeKeystrokes', () => {
  test.for([false, true])(
    'inverts encodeKeys for every named key but Enter, Space and Escape (application cursor keys %s)',
    (applicationCursorKeys) => {
      for (const name of NAMED_KEYS.filter((named) => !['Enter', 'Space', 'Escape'].includes(named))) {
        expect(decodeKeystrokes(encodeKeys([name], { applicationCursorKeys })), name).toEqual([key(name)])
      }
    },
  )

  test('keeps printable characters and Enter as text, one stroke each', () => {
    expect(decodeKeystrokes('Ad é\r')).toEqual([text('A'), text('d'), text(' '), text('é'), text('\r')])
  })

  test('names control characters as Ctrl chords and ESC followed by a key as an Alt chord', () => {
    expect(decodeKeystrokes('\u0003\u0000\u001c\u001bx\u001b\r\u001b')).toEqual([
      key('Ctrl+c'),
      key('Ctrl+@'),
      key('Ctrl+\\'),
      key('Alt+x'),
      key('Alt+Enter'),
      key('Escape'),
    ])
  })

  test('marks terminal replies, which the person never typed', () => {
    expect(decodeKeystrokes('\u001b[12;5Ra\u001b[?1;2c\u001b]11;rgb:0000/0000/0000\u001b\\')).toEqual([
      { kind: 'reply', text: '\u001b[12;5R' },
      text('a'),
      { kind: 'reply', text: '\u001b[?1;2c' },
      { kind: 'reply', text: '\u001b]11;rgb:0000/0000/0000\u001b\\' },
    ])
  })

  test('keeps a sequence without a key name as text, so nothing typed is lost', () => {
    expect(decodeKeystrokes('\u001b[1;5A')).toEqual([text('\u001b[1;5A')])
  })
})
