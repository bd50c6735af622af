import { describe, expect, test } from 'vitest'
import type { Difference } from '../../../src/compare/comparison-schema.js'
import { describeWhere } from '../../../src/compare/format-comparison.js'
import {
  describeRowChange,
  firstScreenRowChange,
  quoteRowChange,
} from '../../../src/compare/screen-row-change.js'
import type { Evidence } from '../../../src/evidence/schema.js'
import { showCommandLine } from '../../../src/internal/escape-controls.js'

/** Only what firstScreenRowChange reads: the checkpoint frames' lines. */
function withScreens(...screens: (readonly string[] | 'omitted')[]): Evidence {
  const frames = screens.map((lines, index) => ({
    trigger: index === screens.length - 1 ? 'final' : 'before_event',
    checkpoint: true,
    ...(lines === 'omitted' ? { status: 'omitted' } : { status: 'retained', lines }),
  }))
  return { terminal: { frames } } as unknown as Evidence
}

describe('firstScreenRowChange', () => {
  test('finds the first row, in checkpoint order, whose text differs, skipping frames not rendered', () => {
    const authority = withScreens('omitted', ['Name?', 'Hello, Ada!', 'bye'])
    const reconstruction = withScreens(['Name? x'], ['Name?', 'Hello, Bob!', 'bye'])
    const change = firstScreenRowChange(authority, reconstruction)
    expect(change).toEqual({
      checkpoint: 1,
      trigger: 'final',
      row: 2,
      authority: 'Hello, Ada!',
      reconstruction: 'Hello, Bob!',
    })
    expect(describeRowChange(change!)).toBe('checkpoint 1 (final), row 2: "Hello, Ada!" → "Hello, Bob!"')
  })

  test('is null when every rendered row reads the same', () => {
    expect(firstScreenRowChange(withScreens(['a', 'b']), withScreens(['a', 'b']))).toBeNull()
  })
})

describe('quoteRowChange', () => {
  test('trims a long row to the changed words with context, and quotes controls terminal-safe', () => {
    const before = `${'x'.repeat(40)} total: 41 files ${'y'.repeat(40)}`
    const after = `${'x'.repeat(40)} total: 42 files ${'y'.repeat(40)}`
    expect(
      quoteRowChange({ checkpoint: 0, trigger: 'final', row: 9, authority: before, reconstruction: after }),
    ).toBe(
      `row 9: "…${'x'.repeat(7)} total: 41 files ${'y'.repeat(9)}…" → "…${'x'.repeat(7)} total: 42 files ${'y'.repeat(9)}…"`,
    )
    expect(
      quoteRowChange({
        checkpoint: 0,
        trigger: 'final',
        row: 1,
        authority: 'ok',
        reconstruction: 'o\u001b]0;x\u0007k',
      }),
    ).toBe('row 1: "ok" → "o\\e]0;x\\x07k"')
  })
})

describe('describeWhere', () => {
  test('says a frame once: the summary names it, the location adds only the column', () => {
    const difference = {
      dimension: 'terminal',
      summary: 'checkpoint frame 0 (final) differs at row 2',
      location: {
        kind: 'terminal_frame',
        checkpoint: 0,
        trigger: 'final',
        event_index: null,
        row: 2,
        column: 3,
      },
    } as unknown as Difference
    expect(describeWhere(difference)).toBe('checkpoint frame 0 (final) differs at row 2, column 3')
  })
})

describe('showCommandLine', () => {
  test('shows an argument with a newline escaped, and quotes words with spaces or none', () => {
    expect(showCommandLine(['printf', 'a\nb', 'two words', ''])).toBe('printf "a\\nb" "two words" ""')
  })
})
