import { describe, expect, test } from 'vitest'
import type { Cell, ScreenCells } from '../../../src/view/screen-cells.js'
import { readScreenCells } from '../../../src/view/screen-cells.js'
import { differingRuns, renderScreensSvg } from '../../../src/view/screens-svg.js'

const plain = (text: string, columns = 8): Cell[] =>
  Array.from({ length: columns }, (_, index) => [text[index] ?? '', 1, null, null, 0] as const)

describe('differingRuns', () => {
  test('finds each run of cells that differ, row by row', () => {
    const a: ScreenCells = { rows: [plain('abcdef'), plain('same')], cursor: [0, 0] }
    const b: ScreenCells = { rows: [plain('abXYef'), plain('same')], cursor: [0, 0] }
    expect(differingRuns(a, b)).toEqual([[0, 2, 2]])
  })

  test('does not outline a written blank against an untouched cell', () => {
    const written: ScreenCells = { rows: [plain('ab  cd')], cursor: [0, 0] }
    const untouched: ScreenCells = {
      rows: [plain('ab').slice(0, 2).concat(plain('', 2), plain('cd').slice(0, 2), plain('', 2))],
      cursor: [0, 0],
    }
    expect(differingRuns(written, untouched)).toEqual([])
  })
})

describe('readScreenCells', () => {
  test('renders a frame with xterm and reports colours and attributes per cell', () => {
    const [screen] = readScreenCells([
      {
        columns: 8,
        rows: 2,
        scrollback: 10,
        state: '\u001b[1;31mHi\u001b[0m \u001b[38;2;1;2;3mX\u001b[0m\r\n\u001b[7m!',
        widthModel: 'grapheme-clusters-v1',
      },
    ])
    expect(screen!.rows[0]!.slice(0, 4)).toEqual([
      ['H', 1, 1, null, 1],
      ['i', 1, 1, null, 1],
      [' ', 1, null, null, 0],
      ['X', 1, '#010203', null, 0],
    ])
    expect(screen!.rows[1]![0]).toEqual(['!', 1, null, null, 16])
    expect(screen!.cursor).toEqual([1, 1])
  })
})

describe('renderScreensSvg', () => {
  test('draws bold palette colours bright, as xterm.js does, and outlines the differing runs on both sides', () => {
    const [a, b] = readScreenCells([
      { columns: 10, rows: 2, scrollback: 0, state: '\u001b[1;31mHello\u001b[0m', widthModel: 'unicode-6' },
      { columns: 10, rows: 2, scrollback: 0, state: '\u001b[1;31mHallo\u001b[0m', widthModel: 'unicode-6' },
    ])
    const svg = renderScreensSvg(
      [
        { label: 'authority', screen: a! },
        { label: 'reconstruction', screen: b! },
      ],
      'checkpoint 0',
    )
    expect(svg).toContain('fill="#ef2929" font-weight="bold">Hello</tspan></text>')
    expect(svg.match(/class="rea-diff-cell" x="8.4" y="0" width="8.4"/g)).toHaveLength(2)
  })
})
