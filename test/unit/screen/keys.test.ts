import { describe, expect, test } from 'vitest'
import { NAMED_KEYS, parseKeyName, typedText } from '../../../src/scenario/key-names.js'
import { encodeKeys } from '../../../src/screen/keys.js'

const normal = { applicationCursorKeys: false }
const application = { applicationCursorKeys: true }

/** What xterm sends for each named key: [normal cursor-key mode, application mode]. */
const EXPECTED: Record<(typeof NAMED_KEYS)[number], readonly [string, string]> = {
  Enter: ['\r', '\r'],
  Tab: ['\t', '\t'],
  Escape: ['\x1b', '\x1b'],
  Backspace: ['\x7f', '\x7f'],
  Space: [' ', ' '],
  Up: ['\x1b[A', '\x1bOA'],
  Down: ['\x1b[B', '\x1bOB'],
  Right: ['\x1b[C', '\x1bOC'],
  Left: ['\x1b[D', '\x1bOD'],
  Home: ['\x1b[H', '\x1bOH'],
  End: ['\x1b[F', '\x1bOF'],
  PageUp: ['\x1b[5~', '\x1b[5~'],
  PageDown: ['\x1b[6~', '\x1b[6~'],
  Insert: ['\x1b[2~', '\x1b[2~'],
  Delete: ['\x1b[3~', '\x1b[3~'],
  F1: ['\x1bOP', '\x1bOP'],
  F2: ['\x1bOQ', '\x1bOQ'],
  F3: ['\x1bOR', '\x1bOR'],
  F4: ['\x1bOS', '\x1bOS'],
  F5: ['\x1b[15~', '\x1b[15~'],
  F6: ['\x1b[17~', '\x1b[17~'],
  F7: ['\x1b[18~', '\x1b[18~'],
  F8: ['\x1b[19~', '\x1b[19~'],
  F9: ['\x1b[20~', '\x1b[20~'],
  F10: ['\x1b[21~', '\x1b[21~'],
  F11: ['\x1b[23~', '\x1b[23~'],
  F12: ['\x1b[24~', '\x1b[24~'],
}

describe('encodeKeys', () => {
  test.each(NAMED_KEYS)('encodes %s as xterm does, in both cursor-key modes', (name) => {
    expect([encodeKeys([name], normal), encodeKeys([name], application)]).toEqual(EXPECTED[name])
  })

  test.each([
    ['Ctrl+C', '\x03'],
    ['Ctrl+c', '\x03'],
    ['Ctrl+D', '\x04'],
    ['Ctrl+@', '\x00'],
    ['Ctrl+[', '\x1b'],
    ['Ctrl+?', '\x7f'],
    ['Alt+x', '\x1bx'],
    ['Alt+Enter', '\x1b\r'],
    ['Alt+Ctrl+C', '\x1b\x03'],
    ['q', 'q'],
    ['é', 'é'],
  ])('encodes the chord or character %s', (name, bytes) => {
    expect(encodeKeys([name], normal)).toBe(bytes)
  })

  test('encodes a sequence in order, arrows following the mode', () => {
    expect(encodeKeys(['Down', 'Down', 'Enter'], application)).toBe('\x1bOB\x1bOB\r')
  })
})

describe('parseKeyName', () => {
  test.each(['', 'enter', 'F13', 'Ctrl+', 'Ctrl+1', 'Ctrl+Enter', 'Alt+', 'Alt+Alt+x', 'Shift+Tab', 'ab'])(
    'rejects %j',
    (name) => {
      expect(parseKeyName(name)).toBeNull()
    },
  )
})

describe('typedText', () => {
  test('is the printable characters and spaces a keys event types', () => {
    expect(typedText(['s', 'e', 'c', 'Space', 'r', 'Enter', 'Up'])).toBe('sec r')
  })
})
