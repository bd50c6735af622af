import { afterAll, describe, expect, test } from 'vitest'
import {
  compareCaptures,
  formatComparison,
  isReaError,
  type Evidence,
  type TerminalFrame,
} from '../../../../src/index.js'
import { Renderer } from '../../../../src/screen/renderer.js'
import { buildEvidence } from '../../../helpers/build-evidence.js'

const renderers: Renderer[] = []
afterAll(() => renderers.forEach((renderer) => renderer.dispose()))

/**
 * A capture whose whole output is `text`, written in one chunk, with its final frame rendered from it by REA's
 * renderer (80×24, 1,000 rows of scrollback, the current width model), as a capture would have.
 */
async function captureOf(text: string, change: (frame: RetainedFrame) => void = () => {}): Promise<Evidence> {
  const evidence = buildEvidence([{ chunk: text }, { frame: 'retained' }])
  evidence.commitments.comparison_contract.value.terminal.width_model = 'grapheme-clusters-v1'
  const renderer = new Renderer({ columns: 80, rows: 24, scrollback: 1000 })
  renderers.push(renderer)
  renderer.write(text)
  const screen = await renderer.whenRendered(() => renderer.readScreen())
  const frame = evidence.terminal.frames[0] as RetainedFrame
  Object.assign(frame, {
    cursor: screen.cursor,
    lines: screen.lines,
    serialized_state: screen.serialized_state,
  })
  change(frame)
  return evidence
}
type RetainedFrame = Extract<TerminalFrame, { status: 'retained' }>

const screens = (a: Evidence, b: Evidence) => compareCaptures(a, b, { terminal: 'screens' })

describe('the screens level', () => {
  test('a screen drawn in another order is equal by screens, different by stream, with the hint', async () => {
    const inOrder = await captureOf('\x1b[?25l\x1b[1;1Hone\x1b[2;1Htwo\x1b[3;1Hthree')
    const reversed = await captureOf('\x1b[?25l\x1b[3;1Hthree\x1b[2;1Htwo\x1b[1;1Hone')
    const byScreens = screens(inOrder, reversed)
    expect(byScreens.verdict).toBe('equivalent')
    expect(byScreens.terminal_level).toBe('screens')
    expect(byScreens.screens_equal).toBeNull()
    expect(byScreens.dimensions.terminal.notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^the normalized terminal output differs at terminal byte \d+ .*screens level/),
        expect.stringMatching(/cursor is hidden on both sides/),
      ]),
    )
    const byStream = compareCaptures(inOrder, reversed)
    expect(byStream.verdict).toBe('different')
    expect(byStream.terminal_level).toBe('stream')
    expect(byStream.screens_equal).toBe(true)
    expect(formatComparison(byStream, { color: false })).toContain(
      "Screens hint: every checkpoint screen is equal; the terminal output differs only in how the screens were drawn (docs/comparison.md#comparing-screens).\n  To compare what the screens show, use { terminal: 'screens' }",
    )
    expect(formatComparison(byStream, { color: false, screensOption: '--terminal screens' })).toContain(
      'use --terminal screens',
    )
  })

  test.for([
    ['two spellings of bold blue', '\x1b[0m\x1b[01;34mdir\x1b[0m', '\x1b[1;34mdir\x1b[m'],
    ['a 16-colour and a 256-colour index', '\x1b[34mx\x1b[39m', '\x1b[38;5;4mx\x1b[39m'],
    ['written blanks and untouched cells', 'a   b   \r\n', 'a\x1b[3Cb\r\n'],
    ['bold on a blank', 'a\x1b[1m   \x1b[0mb', 'a   b'],
    ['inverse video and the swapped colours', '\x1b[31;42;7mx', '\x1b[32;41mx'],
    ['invisible text and blanks', 'a\x1b[8mhidden\x1b[28m', 'a      '],
  ] as const)('%s compare equal by screens', async ([, a, b]) => {
    const comparison = screens(await captureOf(a), await captureOf(b))
    expect(comparison.dimensions.terminal.outcome, JSON.stringify(comparison.dimensions.terminal)).toBe(
      'equal',
    )
  })

  test.for([
    ['a colour change', '\x1b[31mred', '\x1b[32mred', 1, 1, '"r" fg 1', '"r" fg 2'],
    ['a blank with a background', 'ab', 'a\x1b[44m \x1b[0m', 1, 2, '"b"', 'blank bg 4'],
    ['an underlined blank', 'a b', 'a\x1b[4m \x1b[0mb', 1, 2, 'blank', 'blank underline'],
    ['a wide character', 'x\u2705y', 'x\u2705 y', 1, 4, '"y"', 'blank'],
  ] as const)(
    '%s differs, at the cell it is in',
    async ([, a, b, row, column, authority, reconstruction]) => {
      const comparison = screens(await captureOf(a), await captureOf(b))
      expect(comparison.verdict).toBe('different')
      expect(comparison.first_divergence).toMatchObject({
        field: 'terminal.frames.cells',
        authority,
        reconstruction,
        location: { kind: 'terminal_frame', row, column },
      })
    },
  )

  test('compares the scrollback the program wrote', async () => {
    const lines = (count: number) => Array.from({ length: count }, (_, index) => `line ${index}`).join('\r\n')
    // The same visible rows; the first row that scrolled off differs in its third character.
    const comparison = screens(
      await captureOf(lines(30)),
      await captureOf(lines(30).replace('line 0', 'lime 0')),
    )
    expect(comparison.first_divergence).toMatchObject({
      field: 'terminal.frames.cells',
      location: { row: null, scrollback_row: 1, column: 3 },
    })
    const longer = screens(await captureOf(lines(30)), await captureOf(`extra\r\n${lines(30)}`))
    expect(longer.first_divergence).toMatchObject({
      field: 'terminal.frames.scrollback',
      authority: 6,
      reconstruction: 7,
    })
  })

  test('compares the cursor where it is shown, and its visibility', async () => {
    const here = await captureOf('ab\x1b[1;1H')
    const there = await captureOf('ab')
    expect(screens(here, there).first_divergence).toMatchObject({ field: 'terminal.frames.cursor' })
    const hidden = await captureOf('ab\x1b[?25l')
    expect(screens(there, hidden).first_divergence).toMatchObject({
      field: 'terminal.frames.cursor',
      summary: expect.stringContaining('on one side only'),
    })
  })

  test('an omitted frame or an incomplete stream leaves the screens unknown', async () => {
    const a = await captureOf('same')
    const omitted = await captureOf('same')
    omitted.terminal.frames[0] = {
      ...omitted.terminal.frames[0]!,
      status: 'omitted',
      reason: 'rendered_bytes_budget',
    }
    expect(screens(a, omitted).dimensions.terminal.unknowns).toEqual([
      expect.objectContaining({ reason: 'frame_omitted' }),
    ])
    const drained = await captureOf('different text, same reason')
    drained.truncation_details.raw_terminal.drain = 'incomplete'
    const comparison = screens(a, drained)
    expect(comparison.dimensions.terminal.outcome).toBe('different')
    expect(comparison.dimensions.terminal.unknowns).toEqual([
      expect.objectContaining({ reason: 'terminal_incomplete' }),
    ])
  })

  test('rejects a level that is not stream or screens, naming the option', async () => {
    const a = await captureOf('x')
    try {
      compareCaptures(a, a, { terminal: 'cells' as never })
      expect.unreachable()
    } catch (error) {
      expect(isReaError(error) && error.code).toBe('INVALID_ARGUMENTS')
      expect(isReaError(error) && error.issues).toEqual([
        expect.objectContaining({ path: 'terminal', message: 'must be "stream" or "screens": got "cells"' }),
      ])
    }
  })
})
