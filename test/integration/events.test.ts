import { describe, expect, test } from 'vitest'
import { captureProcess, readJournal, type Evidence, type TerminalFrame } from '../../src/index.js'
import { program } from '../helpers/fixtures.js'

type Retained = Extract<TerminalFrame, { status: 'retained' }>
const stream = (evidence: Evidence) => evidence.terminal.chunks.map((chunk) => chunk.data).join('')
const framesOf = (evidence: Evidence, trigger: TerminalFrame['trigger']) =>
  evidence.terminal.frames.filter(
    (frame): frame is Retained => frame.trigger === trigger && frame.status === 'retained',
  )

describe('scheduled input', () => {
  test('answers a prompt and records the dispatch with a checkpoint frame before it', async () => {
    const evidence = await captureProcess({
      executable: program('prompt.mjs'),
      arguments: ['Name: '],
      events: [{ type: 'input', at_ms: 400, data: 'Ada\r' }],
    })
    expect(evidence.exit.code).toBe(0)
    expect(stream(evidence)).toContain('You entered: Ada')
    expect(evidence.interactions).toEqual([
      expect.objectContaining({ event_index: 0, type: 'input', scheduled_at_ms: 400, outcome: 'dispatched' }),
    ])
    const interaction = evidence.interactions[0]!
    expect(interaction.at_ms).toBeGreaterThanOrEqual(400)
    const [before] = framesOf(evidence, 'before_event')
    expect(before).toMatchObject({ event_index: 0, checkpoint: true })
    expect(before!.sequence).toBeLessThan(interaction.sequence)
    // The frame shows what was read before the dispatch: the prompt, unless a loaded machine started the program
    // later than the input was due (a timed event does not wait for it).
    const readBefore = evidence.terminal.chunks
      .filter((chunk) => chunk.sequence < before!.sequence)
      .map((chunk) => chunk.data)
      .join('')
    expect(before!.lines[0]).toBe(readBefore.includes('Name: ') ? 'Name:' : '')
  })

  test('records an event due after the target exited as skipped, without waiting for it', async () => {
    const evidence = await captureProcess({
      executable: 'true',
      events: [{ type: 'input', at_ms: 20_000, data: 'late\r' }],
    })
    // Not a speed check: the capture ended before the event was even due.
    expect(evidence.duration_ms).toBeLessThan(20_000)
    expect(evidence.interactions).toEqual([
      expect.objectContaining({
        event_index: 0,
        outcome: 'skipped',
        reason: expect.stringContaining('exited') as string,
      }),
    ])
    expect(framesOf(evidence, 'before_event')).toEqual([])
  })
})

describe('scheduled resize', () => {
  test('resizes the PTY and the renderer, with checkpoint frames before and after', async () => {
    const evidence = await captureProcess({
      executable: program('size-reporter.mjs'),
      terminal: { columns: 80, rows: 24 },
      events: [
        { type: 'resize', at_ms: 400, columns: 100, rows: 30 },
        { type: 'input', at_ms: 900, data: 'q' },
      ],
    })
    expect(stream(evidence)).toContain('start 24x80')
    expect(stream(evidence)).toContain('resized 30x100')
    const [before] = framesOf(evidence, 'before_event')
    const [after] = framesOf(evidence, 'after_resize')
    expect(before).toMatchObject({ columns: 80, rows: 24, event_index: 0 })
    expect(after).toMatchObject({ columns: 100, rows: 30, event_index: 0, checkpoint: true })
    expect(after!.lines).toHaveLength(30)
    expect(framesOf(evidence, 'final')[0]).toMatchObject({ columns: 100, rows: 30 })
    const order = readJournal(evidence).map((entry) => entry.kind)
    expect(order.indexOf('interaction')).toBeLessThan(order.lastIndexOf('frame'))
  })
})

describe('scheduled signal', () => {
  test('signals the root, which traps it, and records the delivery', async () => {
    const evidence = await captureProcess({
      executable: program('trap-signal.sh'),
      arguments: ['INT', '42'],
      events: [{ type: 'signal', at_ms: 500, signal: 'SIGINT' }],
    })
    expect(stream(evidence)).toContain('caught INT')
    expect(evidence.exit).toMatchObject({ code: 42, reason: 'exited' })
    expect(evidence.interactions).toEqual([
      expect.objectContaining({ type: 'signal', outcome: 'dispatched', delivery: 'signaled' }),
    ])
  })

  test('ends an untrapped root with the signal, recorded in the exit', async () => {
    const evidence = await captureProcess({
      executable: 'sleep',
      arguments: ['30'],
      events: [{ type: 'signal', at_ms: 200, signal: 'SIGTERM' }],
    })
    expect(evidence.exit).toMatchObject({ code: null, signal: 15, reason: 'exited' })
  })
})

describe('deadlines beyond the Node.js timer limit', () => {
  test('still waits for a timeout above 2³¹ ms instead of firing at once', async () => {
    const evidence = await captureProcess({
      executable: 'bash',
      arguments: ['-c', 'sleep 0.5; echo finished'],
      timeout_ms: 2 ** 31 + 5000,
      events: [{ type: 'input', at_ms: 2 ** 31 + 1000, data: 'x' }],
    })
    expect(evidence.exit).toMatchObject({ code: 0, reason: 'exited' })
    expect(stream(evidence)).toBe('finished\r\n')
    expect(evidence.interactions[0]).toMatchObject({ outcome: 'skipped' })
  })
})
