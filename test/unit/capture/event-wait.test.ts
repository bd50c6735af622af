import { describe, expect, test } from 'vitest'
import { EventWait, WAIT_OUTPUT_WINDOW_CHARACTERS, type WaitEnd } from '../../../src/capture/event-wait.js'
import { createMonotonicClock } from '../../../src/internal/monotonic-clock.js'
import type { WaitCondition } from '../../../src/scenario/schema.js'

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
