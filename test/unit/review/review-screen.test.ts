import { describe, expect, test } from 'vitest'
import { decodeReviewKeys } from '../../../src/review/review-keys.js'
import { fit, reviewScreenLines, type ReviewScreenModel } from '../../../src/review/review-screen.js'
import { replayScreen } from '../../../src/screen/screen-replay.js'
import { renderSideBySide } from '../../../src/view/screens-side-by-side.js'

const screen = (state: string, columns = 80) =>
  replayScreen({ columns, rows: 24, scrollback: 0, state, widthModel: 'grapheme-clusters-v1' })
// eslint-disable-next-line no-control-regex -- the escape character starts what is removed
const plain = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, '')

const model = (overrides: Partial<ReviewScreenModel> = {}): ReviewScreenModel => ({
  position: 1,
  total: 2,
  entry: {
    pending_path: '__captures__/todo.test.mjs/greets 1-1f3a9c0e.7c2e90aa.pending-capture.json',
    authority_path: '__captures__/todo.test.mjs/greets 1-1f3a9c0e.capture.json',
    test: { file: 'todo.test.mjs', name: 'greets', assertion: 1 },
    state: 'ready',
    problem: null,
    verdict: 'different',
    dimensions: {
      terminal: 'different',
      interaction: 'equal',
      exit: 'equal',
      filesystem: 'not_selected',
      process: 'equal',
    },
    differing_dimensions: ['terminal'],
    comparison_note: null,
  },
  checkpoints: [
    {
      label: 'final',
      authority: screen('Todo CLI\r\nYou have 3 tasks today.'),
      pending: screen('Todo CL\x1b[31mI\x1b[0m\r\nYou have 3 chores today.'),
    },
  ],
  checkpoint: 0,
  diff: Array.from({ length: 30 }, (_, index) => ({
    kind: index % 2 === 0 ? '-' : '+',
    text: `line ${index}`,
  })),
  fullDiff: [],
  view: 'screens',
  scroll: 0,
  status: '',
  ...overrides,
})

describe('reviewScreenLines', () => {
  test.each([
    [80, 24],
    [120, 40],
    [40, 10],
  ])('fills a %i×%i terminal exactly, no line wider than it', (columns, rows) => {
    const lines = reviewScreenLines(model(), columns, rows, true)
    expect(lines).toHaveLength(rows)
    for (const line of lines) {
      expect(Array.from(plain(line)).length).toBeLessThanOrEqual(columns)
    }
  })

  test('shows both screens side by side, the first change in words, and the keys', () => {
    const text = reviewScreenLines(model(), 80, 24, false).map(plain).join('\n')
    expect(text).toMatch(/^Todo CLI +│ Todo CLI/m)
    expect(text).toMatch(/^You have 3 tasks today\. +│ You have 3 chores today\./m)
    expect(text).toContain('first change: row 1, column 8: "I" → "I" fg 1')
    expect(text).toContain('a accept  r reject  s skip')
  })

  test('asks for room in a terminal too small to review in', () => {
    expect(plain(reviewScreenLines(model(), 30, 8, false)[0]!)).toContain('need 40×10 (have 30×8)')
  })
})

describe('renderSideBySide', () => {
  test('marks changed cells: their own colour kept, a background on each side', () => {
    const drawn = renderSideBySide({
      left: screen('Todo CLI'),
      right: screen('Todo CL\x1b[31mI\x1b[0m'),
      width: 80,
      height: 5,
      colour: true,
    })
    expect(drawn.firstChange).toMatchObject({ row: 1, first: 8, last: 8 })
    expect(drawn.lines[0]).toContain('\x1b[0;48;5;52mI')
    expect(drawn.lines[0]).toContain('\x1b[0;31;48;5;22mI')
  })

  test('moves both sides across so that a change beyond the first half is in view', () => {
    const drawn = renderSideBySide({
      left: screen(`${' '.repeat(70)}old`),
      right: screen(`${' '.repeat(70)}new`),
      width: 80,
      height: 3,
      colour: false,
    })
    expect(drawn.offset[1]).toBeGreaterThan(0)
    expect(plain(drawn.lines[0]!)).toMatch(/old.*│.*new/)
  })
})

describe('decodeReviewKeys', () => {
  test('reads the keys in order and skips sequences it does not use', () => {
    expect(decodeReviewKeys('a\x1b[1;5Ar\x1b[C\x03?x')).toEqual([
      'accept',
      'reject',
      'next-screen',
      'interrupt',
      'help',
    ])
  })
})

describe('fit', () => {
  test('cuts at cells, wide characters taking two, and shows control characters', () => {
    expect(fit('漢字abc', 5)).toBe('漢字a')
    expect(fit('a\x1bb', 8)).toMatch(/^a\\(e|x1b)b +$/)
  })
})
