import { describe, expect, test } from 'vitest'
import { EventWait, WAIT_OUTPUT_WINDOW_CHARACTERS, type WaitEnd } from '../../../src/capture/event-wait.js'
import { createMonotonicClock } from '../../../src/internal/monotonic-clock.js'
import type { WaitCondition } from '../../../src/scenario/schema.js'
import { LiveTerminal } from '../../../src/terminal/live-terminal.js'

/** A wait on output, fed `chunks` one by one; returns how it ended, if it did. */
function feed(after: WaitCondition, chunks: readonly string[]): WaitEnd | undefined {
  let end: WaitEnd | undefined
  const wait = new EventWait(
    after,
    { clock: createMonotonicClock(), screen: undefined, lastOutputMs: () => 0 },
    (result) => (end = result),
  )
  for (const chunk of chunks) {
    wait.noteOutput(chunk)
  }
  wait.dispose()
  return end
}

describe('EventWait on output', () => {
  test.for([
    ['split across chunks', ['Na', 'me', '? '], 'Name?'],
    ['one character at a time', ['x', 'x', 'N', 'a', 'm', 'e', '?'], 'Name?'],
    ['after a long output', ['a'.repeat(WAIT_OUTPUT_WINDOW_CHARACTERS * 2), 'Nam', 'e?'], 'Name?'],
    ['a one-character literal', ['ab', 'c'], 'c'],
  ] as const)('finds a literal %s', ([, chunks, literal]) => {
    expect(feed({ output: literal }, chunks)).toMatchObject({ met: true })
  })

  test('a literal never shown is not met, however long the output', () => {
    const chunks = Array.from({ length: 200 }, (_, index) => `line ${index} Nam\n`)
    expect(feed({ output: 'Name?' }, chunks)).toBeUndefined()
  })

  test('a regex sees the window, not only the latest chunk', () => {
    expect(feed({ output_regex: 'start[^]*end' }, ['start ', 'x'.repeat(1000), ' end'])).toMatchObject({
      met: true,
    })
    // Beyond the window the start is gone.
    expect(
      feed({ output_regex: 'start[^]*end' }, ['start ', 'x'.repeat(WAIT_OUTPUT_WINDOW_CHARACTERS), ' end']),
    ).toBeUndefined()
  })

  test('a literal longer than the window can never be met', () => {
    const literal = 'y'.repeat(WAIT_OUTPUT_WINDOW_CHARACTERS + 1)
    expect(feed({ output: literal }, ['y'.repeat(10), literal])).toBeUndefined()
  })
})

describe('EventWait on the screen', () => {
  const SETTINGS = {
    columns: 20,
    rows: 3,
    scrollback: 10,
    answer_queries: false,
    width_model: 'grapheme-clusters-v1',
  } as const
  const NO_FLOW_CONTROL = { pause: () => undefined, resume: () => undefined }

  /** A live terminal showing `shown`, and a wait on it started once that is parsed. */
  async function screenWait(shown: string, after: WaitCondition) {
    const live = new LiveTerminal(SETTINGS, NO_FLOW_CONTROL, undefined)
    live.feed(shown)
    await live.whenRendered(() => undefined)
    const ends: WaitEnd[] = []
    const wait = new EventWait(
      after,
      { clock: createMonotonicClock(), screen: live, lastOutputMs: () => 0 },
      (end) => ends.push(end),
    )
    const draw = async (text: string): Promise<void> => {
      live.feed(text)
      await live.whenRendered(() => undefined)
    }
    return { ends, draw, dispose: () => (wait.dispose(), live.dispose()) }
  }

  test('is not met by the screen already shown, only once the program has drawn after the wait began', async () => {
    const { ends, draw, dispose } = await screenWait('page 1\r\n-- More --', { screen: '-- More --' })
    expect(ends).toEqual([])
    await draw('\x1b[2J\x1b[Hpage 2\r\n-- More --')
    expect(ends).toEqual([{ met: true, metAtMs: expect.any(Number) }])
    dispose()
  })

  test('matches a trailing space the program wrote', async () => {
    const { ends, draw, dispose } = await screenWait('', { screen: 'Name? ' })
    await draw('Name?')
    expect(ends).toEqual([])
    await draw(' ')
    expect(ends).toMatchObject([{ met: true }])
    dispose()
  })

  test('gone is met once the text has left the screen, after the program drew', async () => {
    const { ends, draw, dispose } = await screenWait('text\r\n-- INSERT --', { gone: '-- INSERT --' })
    await draw('\x1b[1;5H')
    expect(ends).toEqual([])
    await draw('\x1b[2;1H\x1b[2K')
    expect(ends).toMatchObject([{ met: true }])
    dispose()
  })
})
