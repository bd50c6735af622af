import { describe, expect, test } from 'vitest'
import { CELL_FLAGS, type Cell } from '../../../src/screen/screen-replay.js'
import { markedRow } from '../../../src/screen/style-marks.js'

const cell = (
  chars: string,
  fg: number | string | null = null,
  flags = 0,
  bg: number | string | null = null,
): Cell => [chars, 1, fg, bg, flags]

describe('markedRow', () => {
  test('one spelling per look: attributes in order, then colours by name, number or RGB; closed at the end', () => {
    const row = [
      cell('E', 1, CELL_FLAGS.bold),
      cell('!', 1, CELL_FLAGS.bold),
      cell(' '),
      cell('x', 208, CELL_FLAGS.underline | CELL_FLAGS.italic),
      cell('y', '#102030', 0, 12),
    ]
    expect(markedRow(row, false)).toBe(
      '{=bold fg=red}E!{=} {=italic underline fg=208}x{=fg=#102030 bg=bright-blue}y{=}',
    )
  })

  test('trailing default blanks go unless the next row continues this one; a styled blank stays', () => {
    expect(markedRow([cell('a'), cell(' '), cell('')], false)).toBe('a')
    expect(markedRow([cell('a'), cell(' '), cell('')], true)).toBe('a  ')
    expect(markedRow([cell('a'), cell(' ', null, 0, 4)], false)).toBe('a{=bg=blue} {=}')
  })

  test('the second cell of a wide character is skipped', () => {
    expect(markedRow([['中', 2, null, null, 0], ['', 0, null, null, 0], cell('x')], false)).toBe('中x')
  })
})
