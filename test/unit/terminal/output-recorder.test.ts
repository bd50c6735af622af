import { randomBytes } from 'node:crypto'
import { describe, expect, test, vi } from 'vitest'
import { SequenceClock } from '../../../src/evidence/sequence-clock.js'
import type { TerminalChunk } from '../../../src/evidence/schema.js'
import { createMonotonicClock } from '../../../src/internal/monotonic-clock.js'
import { OutputRecorder } from '../../../src/terminal/output-recorder.js'

const text = (value: string): Buffer => Buffer.from(value, 'utf8')
const identity = (value: string): string => value

function setup(budgetBytes: number, normalize: (value: string) => string = identity) {
  const journal = new SequenceClock(createMonotonicClock())
  const retained: TerminalChunk[] = []
  const recorder = new OutputRecorder({
    budgetBytes,
    journal,
    normalize,
    onRetained: (chunk) => retained.push(chunk),
  })
  return { journal, recorder, retained }
}

describe('OutputRecorder', () => {
  test('retains a chunk that fits the budget with its position, text and byte length', () => {
    const { recorder } = setup(100)
    recorder.push(text('héllo'))
    expect(recorder.chunks).toStrictEqual([
      { sequence: 0, at_ms: expect.any(Number), data: 'héllo', byte_length: 6 },
    ])
    expect(recorder.omissions).toEqual([])
  })

  test('retains a chunk that uses exactly the remaining budget', () => {
    const { recorder } = setup(8)
    recorder.push(text('abc'))
    recorder.push(text('defgh'))
    expect(recorder.chunks.map((chunk) => chunk.data)).toEqual(['abc', 'defgh'])
    expect(recorder.accounting.retained_bytes).toBe(8)
  })

  test('omits a chunk that does not fit the budget whole and a later smaller one still fits', () => {
    const { recorder } = setup(10)
    recorder.push(text('aaaaaa'))
    recorder.push(text('bbbbb'))
    recorder.push(text('cccc'))
    expect(recorder.chunks.map((chunk) => chunk.data)).toEqual(['aaaaaa', 'cccc'])
    expect(recorder.omissions).toStrictEqual([
      { sequence: 1, at_ms: expect.any(Number), last_at_ms: expect.any(Number), count: 1, bytes: 5 },
    ])
    expect(recorder.accounting.retained_bytes).toBe(10)
  })

  test('merges consecutive omissions into one entry', () => {
    const { recorder } = setup(3)
    recorder.push(text('abcd'))
    recorder.push(text('efghi'))
    recorder.push(text('jklmno'))
    expect(recorder.omissions).toStrictEqual([
      { sequence: 0, at_ms: expect.any(Number), last_at_ms: expect.any(Number), count: 3, bytes: 15 },
    ])
    const [omission] = recorder.omissions
    expect(omission!.last_at_ms).toBeGreaterThanOrEqual(omission!.at_ms)
  })

  test('starts a new omission entry after a retained chunk', () => {
    const { recorder } = setup(4)
    recorder.push(text('aaaaa'))
    recorder.push(text('bb'))
    recorder.push(text('ccc'))
    recorder.push(text('dddd'))
    expect(recorder.chunks.map((chunk) => [chunk.sequence, chunk.data])).toEqual([[1, 'bb']])
    expect(recorder.omissions.map(({ sequence, count, bytes }) => ({ sequence, count, bytes }))).toEqual([
      { sequence: 0, count: 1, bytes: 5 },
      { sequence: 2, count: 2, bytes: 7 },
    ])
  })

  test('starts a new omission entry after anything else was recorded in the journal', () => {
    const { journal, recorder } = setup(0)
    recorder.push(text('a'))
    const other = journal.record()
    recorder.push(text('b'))
    expect(other.sequence).toBe(1)
    expect(recorder.omissions.map(({ sequence, count }) => ({ sequence, count }))).toEqual([
      { sequence: 0, count: 1 },
      { sequence: 2, count: 1 },
    ])
  })

  test('records the last omission time of a merged entry', () => {
    vi.useFakeTimers()
    try {
      const { recorder } = setup(0)
      recorder.push(text('a'))
      vi.advanceTimersByTime(250)
      recorder.push(text('b'))
      const [omission] = recorder.omissions
      expect(omission!.last_at_ms - omission!.at_ms).toBe(250)
    } finally {
      vi.useRealTimers()
    }
  })

  test('keeps invalid UTF-8 as replacement text plus its exact bytes in base64', () => {
    const { recorder } = setup(100)
    recorder.push(Buffer.from([0x61, 0xff, 0xfe]))
    expect(recorder.chunks).toStrictEqual([
      { sequence: 0, at_ms: expect.any(Number), data: 'a\uFFFD\uFFFD', byte_length: 3, bytes_base64: 'Yf/+' },
    ])
  })

  test.for([
    { invalidBytes: 1, cost: 1 + 4 },
    { invalidBytes: 2, cost: 2 + 4 },
    { invalidBytes: 3, cost: 3 + 4 },
    { invalidBytes: 4, cost: 4 + 8 },
  ])(
    'charges $invalidBytes invalid bytes $cost: the bytes plus their base64 length',
    ({ invalidBytes, cost }) => {
      const exact = setup(cost)
      exact.recorder.push(Buffer.alloc(invalidBytes, 0xff))
      expect(exact.recorder.chunks).toHaveLength(1)
      // The budget pays for the base64 copy; the accounting counts the original bytes.
      expect(exact.recorder.accounting.retained_bytes).toBe(invalidBytes)
      exact.recorder.push(text('x'))
      expect(exact.recorder.accounting).toMatchObject({ retained_chunks: 1, omitted_chunks: 1 })

      const short = setup(cost - 1)
      short.recorder.push(Buffer.alloc(invalidBytes, 0xff))
      expect(short.recorder.chunks).toEqual([])
      expect(short.recorder.omissions.map(({ count, bytes }) => ({ count, bytes }))).toEqual([
        { count: 1, bytes: invalidBytes },
      ])
    },
  )

  test('charges valid multi-byte text its bytes only', () => {
    const { recorder } = setup(7)
    recorder.push(text('€😀'))
    expect(recorder.chunks).toHaveLength(1)
    expect(recorder.chunks[0]).not.toHaveProperty('bytes_base64')
    expect(recorder.accounting.retained_bytes).toBe(7)
  })

  test('records a character split across reads as one chunk', () => {
    const { recorder } = setup(100)
    recorder.push(Buffer.from([0x61, 0xe2, 0x82]))
    recorder.push(Buffer.from([0xac, 0x62]))
    expect(recorder.chunks.map((chunk) => [chunk.data, chunk.byte_length])).toEqual([
      ['a', 1],
      ['€b', 4],
    ])
    expect(recorder.chunks.some((chunk) => 'bytes_base64' in chunk)).toBe(false)
  })

  test('records a partial character held at the end of the stream as a last, invalid chunk', () => {
    const { recorder } = setup(100)
    recorder.push(Buffer.from([0x61, 0xe2, 0x82]))
    expect(recorder.chunks).toHaveLength(1)
    recorder.end()
    expect(recorder.chunks[1]).toStrictEqual({
      sequence: 1,
      at_ms: expect.any(Number),
      data: '\uFFFD',
      byte_length: 2,
      bytes_base64: Buffer.from([0xe2, 0x82]).toString('base64'),
    })
  })

  test('records nothing at the end when no bytes are held back', () => {
    const { recorder } = setup(100)
    recorder.push(text('a'))
    recorder.end()
    expect(recorder.chunks).toHaveLength(1)
    expect(recorder.accounting.observed_chunks).toBe(1)
  })

  test('records nothing for an empty read', () => {
    const { recorder, retained } = setup(100)
    recorder.push(Buffer.alloc(0))
    expect(recorder.chunks).toEqual([])
    expect(retained).toEqual([])
    expect(recorder.accounting.observed_chunks).toBe(0)
  })

  test('adds raw_data only when the normalize hook changed the text', () => {
    const { recorder } = setup(100, (value) => value.replaceAll('4242', '<port>'))
    recorder.push(text('listening on 4242'))
    recorder.push(text('ready'))
    expect(recorder.chunks[0]).toMatchObject({ data: 'listening on <port>', raw_data: 'listening on 4242' })
    expect(recorder.chunks[1]).toMatchObject({ data: 'ready' })
    expect(recorder.chunks[1]).not.toHaveProperty('raw_data')
  })

  test('charges a normalized chunk its original bytes', () => {
    const { recorder } = setup(5, (value) => value.repeat(10))
    recorder.push(text('abcde'))
    expect(recorder.chunks).toHaveLength(1)
    expect(recorder.chunks[0]!.byte_length).toBe(5)
    expect(recorder.accounting.retained_bytes).toBe(5)
  })

  test('calls normalize with the decoded text of retained chunks only', () => {
    const normalize = vi.fn(identity)
    const { recorder } = setup(5, normalize)
    recorder.push(text('ab'))
    recorder.push(text('toolong'))
    recorder.push(Buffer.from([0xe2, 0x82, 0xac]))
    expect(normalize.mock.calls).toEqual([['ab'], ['€']])
  })

  test('calls onRetained with each retained chunk, in order, and never for an omitted one', () => {
    const { recorder, retained } = setup(6)
    recorder.push(text('one'))
    recorder.push(text('toolong'))
    recorder.push(text('two'))
    recorder.push(text('x'))
    expect(retained.map((chunk) => chunk.data)).toEqual(['one', 'two'])
    expect(retained).toEqual(recorder.chunks)
    expect(retained[0]).toBe(recorder.chunks[0])
  })

  test('hands out gap-free sequence numbers across chunks and omissions', () => {
    const { journal, recorder } = setup(10)
    for (const read of ['aaa', 'bbbbbbbbbbbb', 'cc', 'dddddddddddd', 'eeeeeeeeeeee', 'ff', 'gggggggg', 'h']) {
      recorder.push(text(read))
    }
    const sequences = [...recorder.chunks, ...recorder.omissions].map((entry) => entry.sequence)
    expect(sequences.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6])
    expect(journal.nextSequence).toBe(7)
  })

  test('reports a gap from the first omission on, also after later retained chunks', () => {
    const { recorder } = setup(3)
    expect(recorder.hasGap).toBe(false)
    recorder.push(text('ab'))
    expect(recorder.hasGap).toBe(false)
    recorder.push(text('cd'))
    expect(recorder.hasGap).toBe(true)
    recorder.push(text('e'))
    expect(recorder.chunks).toHaveLength(2)
    expect(recorder.hasGap).toBe(true)
  })

  test('accounts observed, retained and omitted chunks and bytes', () => {
    const { recorder } = setup(10)
    recorder.push(text('aaaa'))
    recorder.push(text('bbbbbbbb'))
    recorder.push(Buffer.from([0xff]))
    recorder.push(text('ccccccc'))
    recorder.push(text('d'))
    expect(recorder.accounting).toEqual({
      budget_bytes: 10,
      observed_bytes: 4 + 8 + 1 + 7 + 1,
      retained_bytes: 4 + 1 + 1,
      observed_chunks: 5,
      retained_chunks: 3,
      omitted_chunks: 2,
      omitted_bytes: 8 + 7,
    })
  })

  test('retained and omitted bytes add up to the observed bytes in a flood of random bytes', () => {
    const { recorder } = setup(64 * 1024)
    for (let read = 0; read < 200; read++) {
      recorder.push(randomBytes(1 + ((read * 7919) % 4096)))
    }
    recorder.end()
    const { observed_bytes, retained_bytes, omitted_bytes } = recorder.accounting
    expect(recorder.hasGap).toBe(true)
    expect(retained_bytes + omitted_bytes).toBe(observed_bytes)
    expect(retained_bytes).toBe(recorder.chunks.reduce((sum, chunk) => sum + chunk.byte_length, 0))
  })

  test('retains nothing with a budget of 0', () => {
    const { recorder, retained } = setup(0)
    recorder.push(text('a'))
    recorder.push(text('bc'))
    recorder.push(Buffer.from([0xe2, 0x82]))
    recorder.end()
    expect(recorder.chunks).toEqual([])
    expect(retained).toEqual([])
    expect(recorder.omissions.map(({ sequence, count, bytes }) => ({ sequence, count, bytes }))).toEqual([
      { sequence: 0, count: 3, bytes: 5 },
    ])
    expect(recorder.accounting).toMatchObject({ retained_bytes: 0, retained_chunks: 0, omitted_chunks: 3 })
  })

  describe('countOmitted (a batch of plain text offered as its length)', () => {
    test('records what push records for the same bytes, past the budget', () => {
      const pushed = setup(8)
      const counted = setup(8)
      for (const { recorder } of [pushed, counted]) {
        recorder.push(text('abcdef'))
      }
      pushed.recorder.push(text('x'.repeat(100)))
      pushed.recorder.push(text('y'.repeat(50)))
      expect(counted.recorder.countOmitted(100)).toBe(true)
      expect(counted.recorder.countOmitted(50)).toBe(true)
      expect(counted.recorder.accounting).toEqual(pushed.recorder.accounting)
      const shape = (omissions: readonly { count: number; bytes: number }[]) =>
        omissions.map(({ count, bytes }) => ({ count, bytes }))
      expect(shape(counted.recorder.omissions)).toEqual(shape(pushed.recorder.omissions))
      expect(counted.recorder.hasGap).toBe(true)
    })

    test('declines a batch that would fit the budget, so that it is kept', () => {
      const { recorder } = setup(8)
      expect(recorder.countOmitted(8)).toBe(false)
      expect(recorder.accounting.observed_chunks).toBe(0)
    })

    test('declines while a partial character waits for the bytes after it', () => {
      const { recorder } = setup(4)
      recorder.push(Buffer.from([0xc3]))
      expect(recorder.countOmitted(100)).toBe(false)
    })

    test('declines while an event wants omitted text', () => {
      const journal = new SequenceClock(createMonotonicClock())
      let waiting = true
      const seen: string[] = []
      const recorder = new OutputRecorder({
        budgetBytes: 4,
        journal,
        normalize: identity,
        onRetained: () => undefined,
        onText: (value) => seen.push(value),
        wantsText: () => waiting,
      })
      expect(recorder.countOmitted(100)).toBe(false)
      waiting = false
      expect(recorder.countOmitted(100)).toBe(true)
      expect(seen).toEqual([])
    })
  })
})
