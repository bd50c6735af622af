import { describe, expect, test } from 'vitest'
import { captureProcess } from '../../src/index.js'

// node-pty on Node 20 drops the tail of a child's output at exit in most runs (libuv/libuv#4992);
// without REA's drain this loses lines in well over half of the runs.
const RUNS = 200

describe('captureProcess output drain', () => {
  test(`keeps every byte of seq 1 3000 in ${RUNS} captures`, async () => {
    const incomplete: string[] = []
    for (let run = 0; run < RUNS; run++) {
      const evidence = await captureProcess({ executable: 'seq', arguments: ['1', '3000'], settle_ms: 0 })
      const text = evidence.terminal.chunks.map((chunk) => chunk.data).join('')
      const raw = evidence.truncation_details.raw_terminal
      if (!text.endsWith('2999\r\n3000\r\n') || raw.observed_bytes !== 16_893 || raw.drain !== 'complete') {
        incomplete.push(
          `run ${run}: ${raw.observed_bytes} bytes, drain ${raw.drain}, ends ${JSON.stringify(text.slice(-12))}`,
        )
      }
    }
    expect(incomplete, `${incomplete.length} of ${RUNS} captures lost output`).toEqual([])
  })
})
