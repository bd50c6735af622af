import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { EventWait, WAIT_OUTPUT_WINDOW_CHARACTERS, type WaitEnd } from '../../../src/capture/event-wait.js'
import { createMonotonicClock } from '../../../src/internal/monotonic-clock.js'
import { WAIT_SETTLE_LIMIT_MS, WAIT_SETTLE_MS } from '../../../src/scenario/event-dispatch.js'
import type { WaitCondition } from '../../../src/scenario/schema.js'
import { LiveTerminal } from '../../../src/terminal/live-terminal.js'

/** A wait on output met at the match (quiet_ms 0), fed `chunks` one by one; returns how it ended, if it did. */
function feed(after: WaitCondition, chunks: readonly string[]): WaitEnd | undefined {
  let end: WaitEnd | undefined
  const wait = new EventWait(
    { quiet_ms: 0, ...after },
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

  /** A live terminal showing `shown`, and a wait on it (met at the match) started once that is parsed. */
  async function screenWait(shown: string, after: WaitCondition) {
    const live = new LiveTerminal(SETTINGS, NO_FLOW_CONTROL, undefined)
    live.feed(shown)
    await live.whenRendered(() => undefined)
    const ends: WaitEnd[] = []
    const wait = new EventWait(
      { quiet_ms: 0, ...after },
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

describe('EventWait settling', () => {
  let clock = createMonotonicClock()
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'hrtime'] })
    // The capture's clock starts at the launch, before the wait.
    clock = createMonotonicClock()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  /**
   * A wait on output whose clock and last output are the fake timers' (the program last printed at
   * `printedAtMs`); `print` is a chunk arriving now.
   */
  function outputWait(after: WaitCondition, printedAtMs = 0) {
    let lastOutputMs = printedAtMs
    const ends: WaitEnd[] = []
    const wait = new EventWait(after, { clock, screen: undefined, lastOutputMs: () => lastOutputMs }, (end) =>
      ends.push(end),
    )
    const print = (text: string): void => {
      lastOutputMs = clock.nowMs()
      wait.noteOutput(text)
    }
    return { ends, print, wait }
  }

  test('without quiet_ms is met once the output has been quiet for the settle time, at the time of the match', () => {
    const { ends, print } = outputWait({ output: 'Name?' })
    vi.advanceTimersByTime(20)
    print('Name? ')
    vi.advanceTimersByTime(WAIT_SETTLE_MS - 10)
    // The second half of the prompt's reaction starts the silence over.
    print('[default: Ada]')
    vi.advanceTimersByTime(WAIT_SETTLE_MS - 1)
    expect(ends).toEqual([])
    vi.advanceTimersByTime(1)
    expect(ends).toEqual([{ met: true, metAtMs: 20, settle: 'quiet' }])
  })

  test('without quiet_ms is met at the settle limit when the program never stops drawing', () => {
    const { ends, print } = outputWait({ output: 'ready' })
    print('ready')
    for (let elapsed = 0; elapsed < WAIT_SETTLE_LIMIT_MS; elapsed += 50) {
      expect(ends).toEqual([])
      vi.advanceTimersByTime(50)
      print('|/-\\'[elapsed % 4] ?? '|')
    }
    expect(ends).toEqual([{ met: true, metAtMs: 0, settle: 'limit_reached' }])
  })

  test('quiet_ms 0 is met at the match, as before the settle existed', () => {
    const { ends, print } = outputWait({ output: 'ready', quiet_ms: 0 })
    print('ready')
    expect(ends).toEqual([{ met: true, metAtMs: 0 }])
  })

  test('within_ms running out while a met condition settles does not undo the match', () => {
    const { ends, print } = outputWait({ output: 'ready', within_ms: 50 })
    vi.advanceTimersByTime(40)
    print('ready')
    vi.advanceTimersByTime(WAIT_SETTLE_MS)
    expect(ends).toEqual([{ met: true, metAtMs: 40, settle: 'quiet' }])
  })

  test('an explicit quiet_ms keeps within_ms as a bound on the whole wait', () => {
    const { ends, print } = outputWait({ output: 'ready', quiet_ms: 200, within_ms: 100 })
    print('ready')
    vi.advanceTimersByTime(100)
    expect(ends).toEqual([{ met: false, detail: undefined }])
  })

  test('quiet_ms alone is met when nothing was printed that long since the wait began', () => {
    const { ends, print } = outputWait({ quiet_ms: 300 })
    vi.advanceTimersByTime(200)
    print('late echo')
    vi.advanceTimersByTime(299)
    expect(ends).toEqual([])
    vi.advanceTimersByTime(1)
    expect(ends).toEqual([{ met: true, metAtMs: 500 }])
  })

  test('quiet_ms alone counts what was printed before the wait began as drawn', () => {
    vi.advanceTimersByTime(1000)
    // The program drew right before the previous event went in, at 990 ms.
    const { ends } = outputWait({ quiet_ms: 300 }, 990)
    vi.advanceTimersByTime(300)
    expect(ends).toEqual([{ met: true, metAtMs: 1300 }])
  })
})
