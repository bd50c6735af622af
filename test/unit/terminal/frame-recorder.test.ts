import { afterEach, describe, expect, test } from 'vitest'
import { SequenceClock } from '../../../src/evidence/sequence-clock.js'
import { createMonotonicClock } from '../../../src/internal/monotonic-clock.js'
import { FrameRecorder, screenBytes, type FrameTrigger } from '../../../src/terminal/frame-recorder.js'
import { Renderer, type RenderedScreen } from '../../../src/screen/renderer.js'

const SIZE = { columns: 20, rows: 4, scrollback: 10 }
const renderers: Renderer[] = []

function createRenderer(): Renderer {
  const renderer = new Renderer(SIZE)
  renderers.push(renderer)
  return renderer
}

function setup(budgetBytes = 1_000_000) {
  const renderer = createRenderer()
  const journal = new SequenceClock(createMonotonicClock())
  const gap = { value: false }
  const recorder = new FrameRecorder(renderer, journal, budgetBytes, () => gap.value)
  return { renderer, journal, recorder, gap }
}

/** What a frame of `text` costs, measured on a separate renderer. */
async function costOf(text: string): Promise<number> {
  const renderer = createRenderer()
  renderer.write(text)
  return screenBytes(await renderer.whenRendered(() => renderer.readScreen()))
}

afterEach(() => {
  for (const renderer of renderers.splice(0)) {
    renderer.dispose()
  }
})

describe('screenBytes', () => {
  test('counts the UTF-8 bytes of serialized_state plus every line', () => {
    const screen: RenderedScreen = {
      columns: 80,
      rows: 3,
      cursor: { row: 2, column: 79 },
      lines: ['€', 'ab', ''],
      serialized_state: 'é😀',
    }
    expect(screenBytes(screen)).toBe(2 + 4 + 3 + 2)
  })
})

describe('FrameRecorder', () => {
  test('does not count a frame as retained while it waits for the renderer', async () => {
    const { renderer, recorder } = setup()
    renderer.write('pending output')
    const recording = recorder.record({ trigger: 'final' })
    expect(recorder.retainedCount).toBe(0)
    expect(recorder.accounting.retained_frames).toBe(0)
    await recording
    expect(recorder.retainedCount).toBe(1)
  })

  test.for([
    ['before_event', true],
    ['after_resize', true],
    ['final', true],
    ['quiet', false],
  ] as const)('marks a %s frame checkpoint: %s', async ([trigger, checkpoint]) => {
    const { recorder } = setup()
    expect(await recorder.record({ trigger })).toMatchObject({ trigger, checkpoint })
  })

  test('records the rendered screen of a retained frame', async () => {
    const { renderer, recorder } = setup()
    renderer.write('hi')
    const frame = await recorder.record({ trigger: 'before_event', eventIndex: 3 })
    expect(frame).toStrictEqual({
      sequence: 0,
      at_ms: expect.any(Number),
      trigger: 'before_event',
      checkpoint: true,
      event_index: 3,
      status: 'retained',
      columns: 20,
      rows: 4,
      cursor: { row: 0, column: 2, visible: true },
      lines: ['hi', '', '', ''],
      serialized_state: 'hi',
    })
    expect(recorder.frames).toEqual([frame])
  })

  test('records event_index null when the request names no event', async () => {
    const { recorder } = setup()
    expect((await recorder.record({ trigger: 'final' })).event_index).toBeNull()
  })

  test('shows exactly the writes made before the request while writes are pending', async () => {
    const { renderer, recorder } = setup()
    renderer.write('A')
    const frame = recorder.record({ trigger: 'quiet' })
    renderer.write('B')
    expect(await frame).toMatchObject({ status: 'retained', lines: ['A', '', '', ''] })
  })

  test('shows the current screen when no write is pending', async () => {
    const { renderer, recorder } = setup()
    renderer.write('A')
    await renderer.whenRendered(() => undefined)
    const frame = recorder.record({ trigger: 'quiet' })
    renderer.write('B')
    expect(await frame).toMatchObject({ status: 'retained', lines: ['A', '', '', ''] })
  })

  test('allots the sequence number when the frame is requested', async () => {
    const { renderer, journal, recorder } = setup()
    renderer.write('A')
    const pending = recorder.record({ trigger: 'final' })
    const later = journal.record()
    expect((await pending).sequence).toBe(0)
    expect(later.sequence).toBe(1)
  })

  test('keeps frames in request order', async () => {
    const { renderer, recorder } = setup()
    renderer.write('A')
    const first = recorder.record({ trigger: 'quiet' })
    expect(recorder.frames).toHaveLength(1)
    const second = recorder.record({ trigger: 'final' })
    await Promise.all([first, second])
    expect(recorder.frames.map(({ sequence, trigger }) => ({ sequence, trigger }))).toEqual([
      { sequence: 0, trigger: 'quiet' },
      { sequence: 1, trigger: 'final' },
    ])
  })

  test('retains a frame that uses exactly the remaining budget', async () => {
    const cost = await costOf('hello')
    const { renderer, recorder } = setup(cost)
    renderer.write('hello')
    expect(await recorder.record({ trigger: 'final' })).toMatchObject({ status: 'retained' })
    expect(recorder.retainedBytes).toBe(cost)
  })

  test('omits a frame whose serialized_state and lines do not fit the budget', async () => {
    const cost = await costOf('hello')
    const { renderer, recorder } = setup(cost - 1)
    renderer.write('hello')
    expect(await recorder.record({ trigger: 'after_resize', eventIndex: 1 })).toStrictEqual({
      sequence: 0,
      at_ms: expect.any(Number),
      trigger: 'after_resize',
      checkpoint: true,
      event_index: 1,
      status: 'omitted',
      reason: 'rendered_bytes_budget',
    })
    expect(recorder.retainedBytes).toBe(0)
  })

  test('charges the budget cumulatively over frames', async () => {
    const cost = await costOf('hello')
    const { renderer, recorder } = setup(2 * cost)
    renderer.write('hello')
    const statuses = []
    for (let index = 0; index < 3; index++) {
      statuses.push((await recorder.record({ trigger: 'quiet' })).status)
    }
    expect(statuses).toEqual(['retained', 'retained', 'omitted'])
    expect(recorder.retainedBytes).toBe(2 * cost)
  })

  test('retains a smaller frame after omitting one that did not fit', async () => {
    const big = 'x'.repeat(60)
    const small = 'y'
    const budget = await costOf(small)
    expect(await costOf(big)).toBeGreaterThan(budget)
    const { renderer, recorder } = setup(budget)
    renderer.write(big)
    expect(await recorder.record({ trigger: 'quiet' })).toMatchObject({ status: 'omitted' })
    // RIS clears the screen and the scrollback.
    renderer.write(`\x1bc${small}`)
    expect(await recorder.record({ trigger: 'final' })).toMatchObject({
      status: 'retained',
      lines: ['y', '', '', ''],
    })
  })

  test('omits frames for a raw terminal gap once the output has one, without charging the budget', async () => {
    const { renderer, recorder, gap } = setup()
    renderer.write('hello')
    expect(await recorder.record({ trigger: 'before_event', eventIndex: 0 })).toMatchObject({
      status: 'retained',
    })
    const bytesBeforeGap = recorder.retainedBytes
    gap.value = true
    expect(await recorder.record({ trigger: 'final' })).toStrictEqual({
      sequence: 1,
      at_ms: expect.any(Number),
      trigger: 'final',
      checkpoint: true,
      event_index: null,
      status: 'omitted',
      reason: 'raw_terminal_gap',
    })
    expect(recorder.retainedBytes).toBe(bytesBeforeGap)
  })

  test('accounts observed, retained and omitted frames', async () => {
    const cost = await costOf('abc')
    const { renderer, recorder, gap } = setup(2 * cost + 1)
    renderer.write('abc')
    const triggers: FrameTrigger[] = ['before_event', 'quiet', 'after_resize']
    for (const trigger of triggers) {
      await recorder.record({ trigger })
    }
    gap.value = true
    await recorder.record({ trigger: 'final' })
    expect(recorder.accounting).toEqual({
      budget_bytes: 2 * cost + 1,
      retained_bytes: 2 * cost,
      observed_frames: 4,
      retained_frames: 2,
      omitted_for_budget: 1,
      omitted_for_raw_gap: 1,
    })
    expect(recorder.retainedCount).toBe(2)
    expect(recorder.budgetBytes).toBe(2 * cost + 1)
  })
})
