import { describe, expect, test } from 'vitest'
import type { CleanupStates, ProgressRecord } from '../../../src/capture/progress.js'
import { createProgressWriter } from '../../../src/cli/progress-writer.js'

const CLEANUP: CleanupStates = {
  owned_processes: 'completed',
  renderer: 'disposed',
  temporary_root: 'removed',
}

const intermediate = (sequence: number): ProgressRecord => ({
  phase: 'running',
  completed: sequence * 2,
  total: null,
  message: `elapsed_ms=${sequence * 100} frames=${sequence} samples=${sequence} interactions=0`,
  sequence,
})

const terminal = (sequence: number): ProgressRecord => ({
  phase: 'cleanup',
  completed: 0,
  total: null,
  message: 'elapsed_ms=5000 frames=0 samples=0 interactions=0',
  sequence,
  terminal: true,
  disposition: 'exited',
  cleanup: CLEANUP,
})

/** A writable whose write() result is controlled by the test and whose 'drain' the test emits. */
function fakeStream() {
  const written: string[] = []
  const drainListeners: (() => void)[] = []
  let accepting = true
  const stream = {
    write(chunk: string): boolean {
      written.push(chunk)
      return accepting
    },
    once(event: string, listener: () => void) {
      if (event === 'drain') {
        drainListeners.push(listener)
      }
      return stream
    },
  }
  return {
    stream: stream as unknown as NodeJS.WritableStream,
    written,
    /** Sequence numbers of the records written so far. */
    sequences: () =>
      written.map((line) => (JSON.parse(line) as { rea_progress: ProgressRecord }).rea_progress.sequence),
    block: () => {
      accepting = false
    },
    /** Emits 'drain'; with `stillFull` the stream is full again by the time the listener writes. */
    drain: (stillFull = false) => {
      accepting = !stillFull
      for (const listener of drainListeners.splice(0)) {
        listener()
      }
    },
    drainListenerCount: () => drainListeners.length,
  }
}

describe('createProgressWriter', () => {
  test('writes each record as one rea_progress JSON line', () => {
    const fake = fakeStream()
    const write = createProgressWriter(fake.stream)
    write(intermediate(1))
    write(terminal(2))
    expect(fake.written).toEqual([
      '{"rea_progress":{"phase":"running","completed":2,"total":null,' +
        '"message":"elapsed_ms=100 frames=1 samples=1 interactions=0","sequence":1}}\n',
      `${JSON.stringify({ rea_progress: terminal(2) })}\n`,
    ])
    for (const line of fake.written) {
      expect(line.endsWith('\n')).toBe(true)
      expect(line.slice(0, -1)).not.toContain('\n')
    }
    expect(JSON.parse(fake.written[1]!)).toEqual({ rea_progress: terminal(2) })
  })

  test('writes every record while the stream accepts writes', () => {
    const fake = fakeStream()
    const write = createProgressWriter(fake.stream)
    for (let sequence = 1; sequence <= 5; sequence++) {
      write(intermediate(sequence))
    }
    expect(fake.sequences()).toEqual([1, 2, 3, 4, 5])
    expect(fake.drainListenerCount()).toBe(0)
  })

  test('holds only the latest intermediate record while blocked and writes it on drain', () => {
    const fake = fakeStream()
    const write = createProgressWriter(fake.stream)
    fake.block()
    write(intermediate(1))
    write(intermediate(2))
    write(intermediate(3))
    write(intermediate(4))
    expect(fake.sequences()).toEqual([1])
    fake.drain()
    expect(fake.sequences()).toEqual([1, 4])
    expect(fake.written[1]).toBe(`${JSON.stringify({ rea_progress: intermediate(4) })}\n`)
  })

  test('writes directly again after a drain with nothing waiting', () => {
    const fake = fakeStream()
    const write = createProgressWriter(fake.stream)
    fake.block()
    write(intermediate(1))
    fake.drain()
    expect(fake.sequences()).toEqual([1])
    write(intermediate(2))
    write(intermediate(3))
    expect(fake.sequences()).toEqual([1, 2, 3])
  })

  test('waits for another drain when the record written on drain blocks again', () => {
    const fake = fakeStream()
    const write = createProgressWriter(fake.stream)
    fake.block()
    write(intermediate(1))
    write(intermediate(2))
    fake.drain(true)
    expect(fake.sequences()).toEqual([1, 2])
    expect(fake.drainListenerCount()).toBe(1)
    write(intermediate(3))
    write(intermediate(4))
    expect(fake.sequences()).toEqual([1, 2])
    fake.drain()
    expect(fake.sequences()).toEqual([1, 2, 4])
  })

  test('registers one drain listener per blocked write', () => {
    const fake = fakeStream()
    const write = createProgressWriter(fake.stream)
    fake.block()
    write(intermediate(1))
    write(intermediate(2))
    write(intermediate(3))
    expect(fake.drainListenerCount()).toBe(1)
  })

  test('writes a terminal record immediately while blocked and discards the waiting record', () => {
    const fake = fakeStream()
    const write = createProgressWriter(fake.stream)
    fake.block()
    write(intermediate(1))
    write(intermediate(2))
    write(terminal(3))
    expect(fake.sequences()).toEqual([1, 3])
    fake.drain()
    expect(fake.sequences()).toEqual([1, 3])
    expect(JSON.parse(fake.written.at(-1)!)).toEqual({ rea_progress: terminal(3) })
  })

  test('writes a terminal record while not blocked', () => {
    const fake = fakeStream()
    const write = createProgressWriter(fake.stream)
    write(terminal(1))
    expect(fake.sequences()).toEqual([1])
  })
})
