import { beforeAll, describe, expect, test } from 'vitest'
import { captureProcess, readJournal, type Evidence } from '../../src/index.js'

let evidence: Evidence
beforeAll(async () => {
  evidence = await captureProcess({ executable: 'bash', arguments: ['-c', 'echo one; sleep 0.4; echo two'] })
})

describe('readJournal', () => {
  test('lists every observation once, in sequence order, ending with nothing after the exit but frames', () => {
    const journal = readJournal(evidence)
    expect(journal.map((entry) => entry.sequence)).toEqual([...Array(evidence.journal.next_sequence).keys()])
    const kinds = journal.map((entry) => entry.kind)
    expect(kinds.filter((kind) => kind === 'chunk')).toHaveLength(evidence.terminal.chunks.length)
    expect(kinds.filter((kind) => kind === 'exit')).toHaveLength(1)
    expect(kinds.at(-1)).toBe('frame')
    expect(journal.indexOf(journal.find((entry) => entry.kind === 'exit')!)).toBeGreaterThan(
      kinds.lastIndexOf('chunk'),
    )
  })

  test('points each entry at its record', () => {
    for (const entry of readJournal(evidence)) {
      switch (entry.kind) {
        case 'chunk':
          expect(evidence.terminal.chunks[entry.index]?.sequence).toBe(entry.sequence)
          break
        case 'frame':
          expect(evidence.terminal.frames[entry.index]?.sequence).toBe(entry.sequence)
          break
        case 'exit':
          expect(evidence.exit.sequence).toBe(entry.sequence)
          break
        case 'sample':
          expect(evidence.process.samples[entry.index]?.sequence).toBe(entry.sequence)
          break
        case 'omitted_chunks':
        case 'interaction':
        case 'finalization_signal':
        case 'checkpoint':
        case 'reply':
          throw new Error(`unexpected ${entry.kind} in this capture`)
      }
    }
  })
})
