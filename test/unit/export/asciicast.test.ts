import { describe, expect, test } from 'vitest'
import { exportAsciicast } from '../../../src/index.js'
import { buildEvidence } from '../../helpers/build-evidence.js'

type CastLine = [number, string, string]

function parseCast(text: string): { header: Record<string, unknown>; events: CastLine[] } {
  const [header, ...events] = text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown)
  return { header: header as Record<string, unknown>, events: events as CastLine[] }
}

describe('exportAsciicast', () => {
  test('writes a v2 header from the contract and one event per journal entry, in journal order', () => {
    const evidence = buildEvidence([
      { chunk: 'hello ' },
      { omitted: { count: 2, bytes: 10 } },
      { chunk: 'world' },
      { interaction: { event_index: 0, type: 'resize' } },
      { interaction: { event_index: 1, type: 'signal', outcome: 'skipped' } },
      { frame: 'retained' },
      { exit: { code: null, signal: 9, reason: 'timeout' } },
    ])
    const { header, events } = parseCast(exportAsciicast(evidence))
    expect(header).toMatchObject({ version: 2, width: 80, height: 24, env: { TERM: 'xterm-256color' } })
    expect(events.map(([, code, data]) => [code, data])).toEqual([
      ['o', 'hello '],
      ['m', '2 output chunks (10 bytes) omitted by limits.output_bytes'],
      ['o', 'world'],
      ['r', '80x24'],
      ['m', 'event 1 (signal) skipped'],
      ['m', 'checkpoint 0: final'],
      ['m', 'exit signal 9 (timeout)'],
    ])
  })

  test('never lets time go backwards, even when journal times do', () => {
    // buildEvidence gives later entries earlier times.
    const evidence = buildEvidence([{ chunk: 'a' }, { chunk: 'b' }, { chunk: 'c' }])
    const times = parseCast(exportAsciicast(evidence)).events.map(([time]) => time)
    expect(times).toEqual([...times].sort((a, b) => a - b))
  })

  test('writes v3 with intervals and ends with the exit status', () => {
    const evidence = buildEvidence([{ chunk: 'a' }, { chunk: 'b' }, { exit: { code: 3, signal: 0 } }])
    const { header, events } = parseCast(exportAsciicast(evidence, { version: 3, title: 'demo' }))
    expect(header).toMatchObject({ version: 3, term: { cols: 80, rows: 24 }, title: 'demo' })
    expect(events.at(-1)).toEqual([0, 'x', '3'])
    expect(events.every(([interval]) => interval >= 0)).toBe(true)
  })
})
