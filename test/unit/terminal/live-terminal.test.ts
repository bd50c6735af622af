import { describe, expect, test } from 'vitest'
import { RENDER_SYNC_CHARACTERS } from '../../../src/screen/renderer.js'
import { LiveTerminal } from '../../../src/terminal/live-terminal.js'

const SETTINGS = {
  columns: 20,
  rows: 4,
  scrollback: 100,
  answer_queries: true,
  width_model: 'grapheme-clusters-v1',
} as const
const NO_FLOW_CONTROL = { pause: () => undefined, resume: () => undefined }

function liveTerminal(): { live: LiveTerminal; replies: string[]; replied: Promise<string> } {
  const replies: string[] = []
  let resolveReply!: (reply: string) => void
  const replied = new Promise<string>((resolve) => (resolveReply = resolve))
  const live = new LiveTerminal(SETTINGS, NO_FLOW_CONTROL, (reply) => {
    replies.push(reply)
    resolveReply(reply)
  })
  return { live, replies, replied }
}

describe('LiveTerminal', () => {
  test('plain text is queued, not parsed, while nothing needs the screen', () => {
    const { live } = liveTerminal()
    live.feed('hello\r\nworld')
    // Parsing would have opened the terminal, and the screen would read as rows.
    expect(live.screenText()).toBeUndefined()
    expect(live.idle).toBe(false)
    live.dispose()
  })

  test('a query is answered after the queued text before it (cursor position report)', async () => {
    const { live, replied } = liveTerminal()
    live.feed('abc')
    live.feed('\r\nde')
    live.feed('\x1b[6n')
    expect(await replied).toBe('\x1b[2;3R')
    live.dispose()
  })

  test('a query in a small chunk is answered before feed returns, not on a later tick of the write queue', () => {
    const { live, replies } = liveTerminal()
    live.feed('Name? ')
    live.feed('\x1b[6n')
    // The program waits for this reply: it is sent within the turn that read the query.
    expect(replies).toEqual(['\x1b[1;7R'])
    expect(live.idle).toBe(true)
    live.dispose()
  })

  test('a query behind a large queue goes through the write queue, in order', async () => {
    const { live, replies, replied } = liveTerminal()
    live.feed('x'.repeat(RENDER_SYNC_CHARACTERS))
    live.feed('\x1b[6n')
    expect(replies).toEqual([])
    // 64 Ki characters on 20 columns wrap onto the last row, scrolled: the cursor ends on row 4.
    expect(await replied).toBe(`\x1b[4;${(RENDER_SYNC_CHARACTERS % SETTINGS.columns) + 1}R`)
    live.dispose()
  })

  test('a query still being parsed when the terminal stops is left unanswered', async () => {
    const { live, replies } = liveTerminal()
    // Behind a queue too large to parse at once, the query waits for xterm's write queue.
    live.feed('x'.repeat(RENDER_SYNC_CHARACTERS))
    live.feed('abc\x1b[6n')
    live.stop('the output went past its limit')
    // The renderer parses what it was given; once it has, an answer would have been sent.
    expect(await live.whenRendered(() => live.screenText())).toContain('abc')
    expect(replies).toEqual([])
    live.dispose()
  })

  test('a query introduced by a C1 control (U+009B, CSI) is answered too', async () => {
    const { live, replied } = liveTerminal()
    live.feed('abcd')
    live.feed('\u009b6n')
    expect(await replied).toBe('\x1b[1;5R')
    live.dispose()
  })

  test.for([
    ['a cursor position report', ['ab\x1b[', '6n'], '\x1b[1;3R'],
    ['secondary device attributes, split inside its parameters', ['\x1b[>', '0', 'c'], '\x1b[>0;276;0c'],
    ['a C1 CSI split from its final byte', ['x\u009b', '6', 'n'], '\x1b[1;2R'],
  ] as const)('a query split across chunks is still answered: %s', async ([, chunks, reply]) => {
    const { live, replied } = liveTerminal()
    for (const chunk of chunks) {
      live.feed(chunk)
    }
    expect(await replied).toBe(reply)
    live.dispose()
  })

  test('a query split across chunks whose first part was already parsed is still answered', async () => {
    const { live, replied } = liveTerminal()
    live.feed('\x1b[')
    await live.whenRendered(() => undefined)
    live.feed('6n')
    expect(await replied).toBe('\x1b[1;1R')
    live.dispose()
  })

  test('a mode set by a sequence holds once parsed (application cursor keys)', async () => {
    const { live } = liveTerminal()
    live.feed('menu\r\n')
    live.feed('\x1b[?1h')
    await live.whenRendered(() => undefined)
    expect(live.applicationCursorKeys).toBe(true)
    live.dispose()
  })

  test('a screen watcher sees queued text as soon as it starts watching', () => {
    const { live } = liveTerminal()
    live.feed('Ready> ')
    live.onChange(() => undefined)
    expect(live.screenText()?.split('\n')[0]).toBe('Ready> ')
    live.dispose()
  })

  test('the screen reads as drawn: spaces the program wrote stay, cells it never wrote or erased do not', async () => {
    const { live } = liveTerminal()
    live.feed('Name? \r\nab\x1b[3Cc\r\nxy   \x1b[3D\x1b[K')
    await live.whenRendered(() => undefined)
    expect(live.screenText()?.split('\n')).toEqual(['Name? ', 'ab   c', 'xy', ''])
    live.dispose()
  })

  test('shows output after a mark only once output fed after it is parsed', async () => {
    const { live } = liveTerminal()
    live.feed('page 1')
    live.onChange(() => undefined)
    const mark = live.outputMark()
    expect(live.showsOutputAfter(mark)).toBe(false)
    // Too large to parse at once: fed, not parsed yet, the screen still shows page 1.
    live.feed(`\x1b[2J\x1b[H${'page 2 '.repeat(RENDER_SYNC_CHARACTERS / 7 + 1)}`)
    expect(live.showsOutputAfter(mark)).toBe(false)
    await live.whenRendered(() => undefined)
    expect(live.showsOutputAfter(mark)).toBe(true)
    expect(live.showsOutputAfter(live.outputMark())).toBe(false)
    live.dispose()
  })

  test('while a watcher is registered, plain text is parsed and reported as it arrives', async () => {
    const { live } = liveTerminal()
    const screens: string[] = []
    let resolveSeen!: () => void
    const seen = new Promise<void>((resolve) => (resolveSeen = resolve))
    live.onChange(() => {
      const first = live.screenText()?.split('\n')[0] ?? ''
      screens.push(first)
      if (first === 'done') {
        resolveSeen()
      }
    })
    live.feed('done')
    await seen
    expect(screens).toContain('done')
    live.dispose()
  })

  test('a large queue is parsed through the write queue and reported once parsed', async () => {
    const { live } = liveTerminal()
    // More than the renderer parses on the spot (64 KiB).
    live.feed(`${'x'.repeat(100 * 1024)}\r\nlast`)
    let resolveChanged!: () => void
    const changed = new Promise<void>((resolve) => (resolveChanged = resolve))
    live.onChange(resolveChanged)
    await changed
    expect(live.screenText()?.split('\n').at(-1)).toBe('last')
    live.dispose()
  })

  test('stopping drops queued text without parsing it', () => {
    const { live, replies } = liveTerminal()
    live.feed('never shown')
    live.stop('test')
    expect(live.stopped).toBe('test')
    expect(live.screenText()).toBeUndefined()
    expect(replies).toEqual([])
    live.dispose()
  })
})
