import { afterEach, describe, expect, test, vi } from 'vitest'
import { Renderer, RENDER_SYNC_CHARACTERS, trimTrailingSpaces } from '../../../src/screen/renderer.js'

const renderers: Renderer[] = []

function createRenderer(columns = 20, rows = 4, scrollback = 10): Renderer {
  const renderer = new Renderer({ columns, rows, scrollback })
  renderers.push(renderer)
  return renderer
}

async function render(renderer: Renderer, text: string) {
  renderer.write(text)
  return renderer.whenRendered(() => renderer.readScreen())
}

afterEach(() => {
  for (const renderer of renderers.splice(0)) {
    renderer.dispose()
  }
})

describe('trimTrailingSpaces', () => {
  test.for([
    ['abc   ', 'abc'],
    ['abc', 'abc'],
    ['   ', ''],
    ['', ''],
    [' a b ', ' a b'],
    ['a\t', 'a\t'],
    ['a\t  ', 'a\t'],
    ['a\u00a0', 'a\u00a0'],
    ['a\u00a0 ', 'a\u00a0'],
    ['a\u3000', 'a\u3000'],
    ['a \n', 'a \n'],
  ] as const)('turns %j into %j', ([line, expected]) => {
    expect(trimTrailingSpaces(line)).toBe(expected)
  })
})

describe('Renderer', () => {
  test('lists every visible row, keeping blank rows as empty strings', async () => {
    const screen = await render(createRenderer(20, 5), 'one\r\n\r\nthree   ')
    expect(screen.lines).toEqual(['one', '', 'three', '', ''])
    expect(screen.columns).toBe(20)
    expect(screen.rows).toBe(5)
  })

  test('keeps a trailing no-break space the program wrote', async () => {
    const screen = await render(createRenderer(), 'x\u00a0')
    expect(screen.lines[0]).toBe('x\u00a0')
  })

  test('lists the visible rows, not the scrollback, once output scrolls', async () => {
    const screen = await render(createRenderer(20, 3), 'l1\r\nl2\r\nl3\r\nl4\r\nl5')
    expect(screen.lines).toEqual(['l3', 'l4', 'l5'])
    expect(screen.serialized_state).toContain('l1')
  })

  test('reports the zero-based cursor position', async () => {
    const renderer = createRenderer(20, 5)
    expect((await render(renderer, 'abc\r\nde')).cursor).toEqual({ row: 1, column: 2, visible: true })
    expect((await render(renderer, '\x1b[4;7H')).cursor).toEqual({ row: 3, column: 6, visible: true })
  })

  test('reports whether the program hid the cursor (DECTCEM), and a soft reset shows it again', async () => {
    const renderer = createRenderer(20, 5)
    expect((await render(renderer, 'a\x1b[?25l')).cursor.visible).toBe(false)
    expect((await render(renderer, '\x1b[?25h')).cursor.visible).toBe(true)
    expect((await render(renderer, '\x1b[?25l\x1b[!p')).cursor.visible).toBe(true)
  })

  test('changes columns and rows on resize', async () => {
    const renderer = createRenderer(20, 4)
    renderer.resize(30, 6)
    const screen = await render(renderer, 'x'.repeat(25))
    expect(screen).toMatchObject({ columns: 30, rows: 6 })
    expect(screen.lines).toHaveLength(6)
    expect(screen.lines[0]).toBe('x'.repeat(25))
  })

  test('wraps at the new width after shrinking', async () => {
    const renderer = createRenderer(20, 4)
    renderer.resize(10, 3)
    const screen = await render(renderer, 'abcdefghijklmno')
    expect(screen.lines).toEqual(['abcdefghij', 'klmno', ''])
  })

  test('reads the screen in whenRendered as it stands after exactly the writes before it', async () => {
    const renderer = createRenderer()
    renderer.write('A')
    const first = renderer.whenRendered(() => renderer.readScreen().lines[0])
    renderer.write('B')
    const second = renderer.whenRendered(() => renderer.readScreen().lines[0])
    renderer.write('C')
    expect(await first).toBe('A')
    expect(await second).toBe('AB')
  })

  test('counts pending writes until they are parsed', async () => {
    const renderer = createRenderer()
    expect(renderer.pendingWrites).toBe(0)
    renderer.write('a')
    renderer.write('b')
    expect(renderer.pendingWrites).toBe(2)
    expect(await renderer.whenRendered(() => renderer.pendingWrites)).toBe(0)
    expect(renderer.pendingWrites).toBe(0)
  })

  test('calls the write callback once the text is parsed', async () => {
    const renderer = createRenderer()
    const onParsed = vi.fn(() => renderer.readScreen().lines[0])
    renderer.write('hi', onParsed)
    expect(onParsed).not.toHaveBeenCalled()
    await renderer.whenRendered(() => undefined)
    expect(onParsed).toHaveBeenCalledOnce()
    expect(onParsed.mock.results[0]?.value).toBe('hi')
  })

  test('rejects whenRendered with the error the read threw', async () => {
    const renderer = createRenderer()
    const failure = new Error('read failed')
    await expect(
      renderer.whenRendered(() => {
        throw failure
      }),
    ).rejects.toBe(failure)
  })

  test('wraps a thrown non-Error in an Error', async () => {
    const renderer = createRenderer()
    await expect(
      renderer.whenRendered(() => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error
        throw 'plain text'
      }),
    ).rejects.toThrow(new Error('plain text'))
  })

  test('keeps SGR colour sequences in serialized_state', async () => {
    const screen = await render(createRenderer(), '\x1b[31mred\x1b[0m \x1b[1;44mbold\x1b[0m')
    expect(screen.lines[0]).toBe('red bold')
    expect(screen.serialized_state).toContain('\x1b[31mred\x1b[0m')
    expect(screen.serialized_state).toContain('\x1b[44;1mbold\x1b[0m')
  })

  test('ignores writes after dispose', () => {
    const renderer = createRenderer()
    renderer.dispose()
    renderer.write('late')
    expect(renderer.pendingWrites).toBe(0)
    expect(() => renderer.dispose()).not.toThrow()
  })
})
describe('Renderer of a program that printed nothing', () => {
  test.for([
    [80, 24, 1000],
    [1, 1, 0],
    [33, 7, 5],
    [200, 60, 0],
  ] as const)(
    'shows the screen a real xterm of %ix%i (scrollback %i) shows, without opening one',
    async ([columns, rows, scrollback]) => {
      const untouched = createRenderer(columns, rows, scrollback)
      expect(untouched.idle).toBe(true)
      const screen = await untouched.whenRendered(() => untouched.readScreen())
      expect(untouched.opened).toBe(false)
      expect(untouched.readLines()).toEqual(screen.lines)

      // Writing nothing opens a real terminal.
      const real = createRenderer(columns, rows, scrollback)
      expect(await render(real, '')).toEqual(screen)
      expect(real.opened).toBe(true)
    },
  )

  test('hands out a new screen each time: changing one does not change the next', () => {
    const renderer = createRenderer(21, 2, 0)
    const screen = renderer.readScreen()
    screen.lines[0] = 'changed'
    ;(screen.cursor as { row: number }).row = 5
    expect(renderer.readScreen()).toMatchObject({ lines: ['', ''], cursor: { row: 0, column: 0 } })
  })

  test('a renderer that was written to or resized shows its own screen', async () => {
    const written = await render(createRenderer(35, 3, 5), 'text')
    expect(written.lines[0]).toBe('text')

    const resized = createRenderer(35, 3, 5)
    resized.resize(12, 2)
    const screen = await resized.whenRendered(() => resized.readScreen())
    expect(screen).toMatchObject({ columns: 12, rows: 2 })
    expect(resized.opened).toBe(true)

    const queued = createRenderer(35, 3, 5)
    queued.enqueue('queued')
    expect(queued.idle).toBe(false)
    expect((await queued.whenRendered(() => queued.readScreen())).lines[0]).toBe('queued')
  })
})

describe('Renderer parsing a small queue at once', () => {
  const sample =
    '\x1b[2J\x1b[H\x1b[1;31mred\x1b[0m plain \u4f60\u597d\r\n' +
    Array.from({ length: 30 }, (_, index) => `line ${index}\x1b[K`).join('\r\n') +
    '\x1b[5;3H\x1b[7minverse\x1b[27m\x1b[?25l\x1b]0;title\x07tail'

  /** Takes a frame; says whether the read ran before whenRendered returned. */
  function frame(renderer: Renderer) {
    let read = false
    const screen = renderer.whenRendered(() => {
      read = true
      return renderer.readScreen()
    })
    return { readInSameTurn: read, screen }
  }

  test('reads a frame of a small queue in the same turn, with the screen the write queue gives', async () => {
    const queued = createRenderer(40, 8, 20)
    queued.enqueue(sample)
    const { readInSameTurn, screen } = frame(queued)
    expect(readInSameTurn).toBe(true)
    expect(await screen).toEqual(await render(createRenderer(40, 8, 20), sample))
  })

  test('a queue larger than the bound, or one behind a pending write, goes through the write queue', async () => {
    const large = createRenderer(40, 8, 20)
    large.enqueue('x'.repeat(RENDER_SYNC_CHARACTERS + 1))
    const fromLarge = frame(large)
    expect(fromLarge.readInSameTurn).toBe(false)
    expect((await fromLarge.screen).lines[7]).toMatch(/^x+$/)

    const behind = createRenderer(40, 8, 20)
    behind.write('first ')
    behind.enqueue('second')
    const fromBehind = frame(behind)
    expect(fromBehind.readInSameTurn).toBe(false)
    expect((await fromBehind.screen).lines[0]).toBe('first second')
  })
})
