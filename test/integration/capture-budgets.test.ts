import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, test } from 'vitest'
import { computeIdentityDigest } from '../../src/evidence/identity-digest.js'
import { captureProcess, isReaError, parseEvidence, type Evidence } from '../../src/index.js'
import { program } from '../helpers/fixtures.js'

describe('captureProcess output budgets', () => {
  test('accounts a flood of random bytes so that retained + omitted = observed', async () => {
    const evidence = await captureProcess({
      executable: 'head',
      arguments: ['-c', '2000000', '/dev/urandom'],
      limits: { output_bytes: 256 * 1024, rendered_bytes: 0 },
    })
    const raw = evidence.truncation_details.raw_terminal
    // The PTY turns each \n into \r\n, so more arrives than head wrote.
    expect(raw.observed_bytes).toBeGreaterThanOrEqual(2_000_000)
    expect(raw.retained_bytes + raw.omitted_bytes).toBe(raw.observed_bytes)
    expect(raw.retained_bytes).toBe(
      evidence.terminal.chunks.reduce((sum, chunk) => sum + chunk.byte_length, 0),
    )
    expect(evidence.terminal.chunks.some((chunk) => chunk.bytes_base64 !== undefined)).toBe(true)
  })

  test('import reads retained_bytes as original bytes, and as the older count with base64 copies', async () => {
    const evidence = await captureProcess({ executable: 'printf', arguments: ['\\377x\\n'], settle_ms: 20 })
    const chunks = evidence.terminal.chunks
    const original = chunks.reduce((sum, chunk) => sum + chunk.byte_length, 0)
    const copies = chunks.reduce((sum, chunk) => sum + (chunk.bytes_base64?.length ?? 0), 0)
    expect(copies).toBeGreaterThan(0)
    expect(evidence.truncation_details.raw_terminal.retained_bytes).toBe(original)
    const withRetainedBytes = (bytes: number): Evidence => {
      const document = structuredClone(evidence)
      document.truncation_details.raw_terminal.retained_bytes = bytes
      const record = document as unknown as Record<string, unknown>
      record['identity_digest'] = computeIdentityDigest(record)
      return document
    }
    expect(
      parseEvidence(withRetainedBytes(original + copies)).truncation_details.raw_terminal.retained_bytes,
    ).toBe(original + copies)
    const error: unknown = (() => {
      try {
        return parseEvidence(withRetainedBytes(original + 1))
      } catch (caught) {
        return caught
      }
    })()
    expect(isReaError(error) ? error.issues : []).toContainEqual(
      expect.objectContaining({
        path: 'truncation_details.raw_terminal.retained_bytes',
        rule: 'accounting_consistency',
      }),
    )
  })

  test('omits chunks beyond output_bytes, accounts for them and stops rendering at the gap', async () => {
    const evidence = await captureProcess({
      executable: program('flood.sh'),
      arguments: ['200000'],
      limits: { output_bytes: 10_000 },
    })
    const raw = evidence.truncation_details.raw_terminal
    expect(raw.observed_bytes).toBe(200_000)
    expect(raw.retained_bytes).toBeLessThanOrEqual(10_000)
    expect(raw.omitted_chunks).toBeGreaterThan(0)
    expect(raw.omitted_bytes + raw.retained_bytes).toBe(200_000)
    expect(raw.truncated).toBe(true)
    expect(evidence.truncated).toBe(true)
    expect(evidence.terminal.omitted_chunks.reduce((sum, run) => sum + run.count, 0)).toBe(raw.omitted_chunks)
    expect(evidence.terminal.frames.at(-1)).toMatchObject({
      trigger: 'final',
      status: 'omitted',
      reason: 'raw_terminal_gap',
    })
    expect(evidence.journal.complete).toBe(false)
    expect(evidence.residual_unknowns).toContainEqual(
      expect.objectContaining({ dimension: 'terminal', reason: 'truncated' }),
    )
  })

  test('still keeps a later chunk that fits after a larger one was omitted', async () => {
    const evidence = await captureProcess({
      executable: program('write-bytes.mjs'),
      arguments: ['100', '78'.repeat(3000), '6f6b0a'],
      limits: { output_bytes: 100 },
    })
    const text = evidence.terminal.chunks.map((chunk) => chunk.data).join('')
    expect(text).toBe('ok\r\n')
    expect(evidence.terminal.omitted_chunks.length).toBeGreaterThan(0)
    expect(evidence.terminal.chunks[0]!.sequence).toBeGreaterThan(
      evidence.terminal.omitted_chunks[0]!.sequence,
    )
  })

  test('omits a frame that does not fit rendered_bytes and says so', async () => {
    const evidence = await captureProcess({
      executable: 'echo',
      arguments: ['hello'],
      limits: { rendered_bytes: 3 },
    })
    expect(evidence.terminal.frames.at(-1)).toMatchObject({
      status: 'omitted',
      reason: 'rendered_bytes_budget',
    })
    expect(evidence.truncation_details.rendered_terminal).toMatchObject({
      omitted_for_budget: 1,
      truncated: true,
    })
    expect(evidence.truncation_details.raw_terminal.truncated).toBe(false)
  })

  test('keeps memory bounded by the budget under a flood', async () => {
    setFlagsFromString('--expose-gc')
    const collectGarbage = runInNewContext('gc') as () => void
    // What stays reachable (heap plus Buffer memory) after full collections; RSS also counts freed memory.
    // Buffer memory is released by finalizers after its wrappers are collected, hence two passes and a turn.
    const retainedMemory = async (): Promise<number> => {
      collectGarbage()
      await new Promise((resolve) => setImmediate(resolve))
      collectGarbage()
      const usage = process.memoryUsage()
      return usage.heapUsed + usage.arrayBuffers
    }
    const flood = (bytes: number) =>
      captureProcess({
        executable: program('flood.sh'),
        arguments: [String(bytes)],
        limits: { output_bytes: 65_536 },
      })
    await flood(1_000_000) // warm-up: code compiled on first use is not retention
    const before = await retainedMemory()
    const evidence = await captureProcess({
      executable: program('flood.sh'),
      arguments: ['30000000'],
      limits: { output_bytes: 65_536 },
    })
    const raw = evidence.truncation_details.raw_terminal
    expect(raw.observed_bytes).toBe(30_000_000)
    expect(raw.retained_bytes).toBeLessThanOrEqual(65_536)
    expect(evidence.terminal.chunks.reduce((sum, chunk) => sum + chunk.data.length, 0)).toBeLessThanOrEqual(
      65_536,
    )
    // Retaining the flood would need > 30 MB; the Evidence itself holds about 64 KiB (measured: ~0.5 MB in all).
    expect((await retainedMemory()) - before).toBeLessThan(3_000_000)
  })

  test('marks nothing truncated when everything fits', async () => {
    const evidence = await captureProcess({ executable: 'seq', arguments: ['1', '50'] })
    expect(evidence.truncated).toBe(false)
    expect(evidence.journal).toMatchObject({ complete: true, incomplete_reasons: [] })
    expect(evidence.truncation_details.raw_terminal).toMatchObject({
      omitted_chunks: 0,
      truncated: false,
      drain: 'complete',
    })
  })
})
