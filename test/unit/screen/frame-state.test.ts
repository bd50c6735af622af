import { describe, expect, test } from 'vitest'
import { redrawableState } from '../../../src/screen/frame-state.js'
import { Renderer } from '../../../src/screen/renderer.js'
import { CELL_FLAGS, replayScreen, replaySteps, replayText } from '../../../src/screen/screen-replay.js'

const SIZE = { columns: 20, rows: 3, scrollback: 0 }

/** A real frame: the text written into REA's renderer, read back whole as a frame records it. */
async function frameOf(text: string): Promise<string> {
  const renderer = new Renderer(SIZE)
  try {
    renderer.enqueue(text)
    return await renderer.whenRendered(() => renderer.readScreen().serialized_state)
  } finally {
    renderer.dispose()
  }
}

function redraw(state: string) {
  return replayScreen({ ...SIZE, state, widthModel: 'grapheme-clusters-v1' })
}

describe('a frame of the alternate buffer redrawn', () => {
  // As neovim draws: plain text, then its status line reverse and bold, attributes left set afterwards.
  const program = '\x1b[?1049h\x1b[H\x1b[2Jplain text\x1b[3;1H\x1b[0;1;7mstatus\x1b[H'

  test('shows plain text plain although the program left reverse bold set after its status line', async () => {
    const screen = redraw(await frameOf(program))
    expect(screen.rows[0]?.[0]).toEqual(['p', 1, null, null, 0])
    expect(screen.rows[2]?.[0]).toEqual(['s', 1, null, null, CELL_FLAGS.bold | CELL_FLAGS.inverse])
    expect(
      replayText({ ...SIZE, state: await frameOf(program), widthModel: 'grapheme-clusters-v1' }).alternate,
    ).toBe(true)
  })

  test('leaves the attributes the program had set in force, for what it writes next', async () => {
    const state = redrawableState(await frameOf(program))
    const screen = replaySteps({ ...SIZE, widthModel: 'grapheme-clusters-v1' }, [
      { text: state },
      { text: 'x' },
    ])
    // The cursor was home: the next character lands there, reverse and bold as in the program's terminal.
    expect(screen.rows[0]?.[0]).toEqual(['x', 1, null, null, CELL_FLAGS.bold | CELL_FLAGS.inverse])
    expect(screen.rows[0]?.[1]?.[4]).toBe(0)
  })

  test('a frame of the normal buffer is redrawn as recorded', async () => {
    const state = await frameOf('\x1b[1mbold\x1b[0m plain')
    expect(redrawableState(state)).toBe(state)
  })
})
