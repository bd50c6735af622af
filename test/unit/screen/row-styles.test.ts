import { describe, expect, test } from 'vitest'
import { rowStyleNotation } from '../../../src/screen/row-styles.js'
import { replayScreen } from '../../../src/screen/screen-replay.js'

/** The first row of a 20-column screen after the program wrote `text`. */
const row = (text: string) =>
  replayScreen({ columns: 20, rows: 2, scrollback: 0, state: text, widthModel: 'grapheme-clusters-v1' })
    .rows[0]!

describe('rowStyleNotation', () => {
  test.each([
    ['plain text has none', 'Todo CLI', null],
    ['a bold banner is one run, its space included', '\x1b[1mTodo CLI\x1b[0m', '1-8 bold «Todo CLI»'],
    ['one glyph in red', '\x1b[1mTodo CL\x1b[31mI\x1b[0m', '1-7 bold «Todo CL», 8 bold red «I»'],
    [
      'palette, bright and RGB colours, background',
      '\x1b[38;5;208mx\x1b[92my\x1b[38;2;255;136;0;44mz\x1b[0m',
      '1 208 «x», 2 bright-green «y», 3 #ff8800 on blue «z»',
    ],
    ['a background reaches as far as its blanks', '\x1b[44m ok   \x1b[0m', '1-6 on blue « ok»'],
    ['a bold blank shows nothing and starts no run', 'a\x1b[1m   \x1b[0mb', null],
    [
      'attributes in their order, inverse and strike',
      '\x1b[9;7;3mno\x1b[0m',
      '1-2 italic strike inverse «no»',
    ],
    ['a wide glyph covers two columns', '\x1b[31m漢\x1b[0mx', '1-2 red «漢»'],
    ['invisible text is shown, named', 'pw: \x1b[8msecret\x1b[0m', '5-10 invisible «secret»'],
  ])('%s', (_name, text, expected) => {
    expect(rowStyleNotation(row(text))).toBe(expected)
  })
})
