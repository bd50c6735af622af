import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { captureProcess, type ProgressRecord } from '../../src/index.js'
import { program } from '../helpers/fixtures.js'

let directory: string
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'rea-finalization-'))
})
afterEach(() => rmSync(directory, { recursive: true, force: true }))

describe('finalization_ms', () => {
  test('sends SIGTERM at the deadline and records the code of a finalizer that exits 3', async () => {
    const report = path.join(directory, 'report.txt')
    const evidence = await captureProcess({
      executable: program('finalizer.sh'),
      arguments: [report],
      timeout_ms: 400,
      finalization_ms: 5000,
    })
    expect(readFileSync(report, 'utf8')).toBe('complete\n')
    expect(evidence.disposition).toBe('timeout')
    expect(evidence.exit).toMatchObject({ code: null, signal: 0, reason: 'timeout' })
    const finalization = evidence.exit.finalization!
    expect(finalization).toMatchObject({ requested_ms: 5000, exit_code: 3 })
    expect(finalization.signals).toEqual([
      expect.objectContaining({ signal: 'SIGTERM', delivery: 'signaled' }),
    ])
    expect(finalization.signals[0]!.sent_at_ms).toBeLessThanOrEqual(finalization.elapsed_ms!)
    // Output written during finalization is still captured.
    expect(evidence.terminal.chunks.map((chunk) => chunk.data).join('')).toContain('finalizing')
  })

  test('sends exactly one SIGKILL when the target ignores SIGTERM', async () => {
    const evidence = await captureProcess({
      executable: program('ignore-term.sh'),
      idle_timeout_ms: 300,
      finalization_ms: 400,
    })
    expect(evidence.disposition).toBe('idle_timeout')
    expect(evidence.exit).toMatchObject({ code: null, signal: 9, reason: 'idle_timeout' })
    const finalization = evidence.exit.finalization!
    expect(finalization.exit_code).toBeNull()
    expect(finalization.signals.map((signal) => [signal.signal, signal.delivery])).toEqual([
      ['SIGTERM', 'signaled'],
      ['SIGKILL', 'signaled'],
    ])
    expect(finalization.signals[1]!.sent_at_ms).toBeGreaterThanOrEqual(400)
    expect(finalization.elapsed_ms).toBeGreaterThanOrEqual(finalization.signals[1]!.sent_at_ms)
  })

  test('records a SIGTERM exit during finalization as a signal, with no exit code', async () => {
    const evidence = await captureProcess({
      executable: 'sleep',
      arguments: ['30'],
      timeout_ms: 300,
      finalization_ms: 5000,
    })
    expect(evidence.exit).toMatchObject({ code: null, signal: 15, reason: 'timeout' })
    expect(evidence.exit.finalization).toMatchObject({
      exit_code: null,
      signals: [expect.objectContaining({ signal: 'SIGTERM' })],
    })
  })

  test('keeps dispatching scenario events during finalization', async () => {
    // Events must fall within timeout_ms, so an idle deadline starts the finalization before the event.
    const evidence = await captureProcess({
      executable: program('ignore-term.sh'),
      idle_timeout_ms: 300,
      finalization_ms: 800,
      events: [{ type: 'input', at_ms: 600, data: 'during finalization\r' }],
    })
    expect(evidence.interactions).toEqual([
      expect.objectContaining({ outcome: 'dispatched', scheduled_at_ms: 600 }),
    ])
    expect(evidence.interactions[0]!.sequence).toBeGreaterThan(
      evidence.exit.finalization!.signals[0]!.sequence,
    )
  })

  test('without finalization_ms kills at once and records no finalization', async () => {
    const evidence = await captureProcess({ executable: program('ignore-term.sh'), timeout_ms: 300 })
    expect(evidence.exit).toMatchObject({ code: null, signal: 9, reason: 'timeout' })
    expect(evidence.exit).not.toHaveProperty('finalization')
  })
})

describe('cancellation', () => {
  test('mid-finalization sends the SIGKILL at once, keeps the deadline as the reason and leaves nothing running', async () => {
    const controller = new AbortController()
    const evidence = await captureProcess(
      { executable: program('ignore-term.sh'), timeout_ms: 300, finalization_ms: 60_000 },
      {
        signal: controller.signal,
        onProgress: (record: ProgressRecord) => {
          // The deadline has passed once elapsed time exceeds it; cancel well inside the minute of grace.
          const elapsed = Number(/elapsed_ms=(\d+)/.exec(record.message)?.[1])
          if (elapsed > 1000) {
            controller.abort()
          }
        },
      },
    )
    expect(evidence.disposition).toBe('cancelled')
    expect(evidence.exit).toMatchObject({ code: null, signal: 9, reason: 'timeout' })
    expect(evidence.exit.finalization!.signals.map((signal) => signal.signal)).toEqual(['SIGTERM', 'SIGKILL'])
    expect(evidence.exit.finalization!.signals[1]!.sent_at_ms).toBeLessThan(60_000)
  })

  test('mid-run kills at once with no finalization, even when an interval is set', async () => {
    const marker = path.join(directory, 'never')
    const controller = new AbortController()
    const evidence = await captureProcess(
      { executable: program('finalizer.sh'), arguments: [marker], finalization_ms: 5000 },
      {
        signal: controller.signal,
        onProgress: (record) => {
          if (record.phase === 'running') {
            controller.abort()
          }
        },
      },
    )
    expect(evidence.disposition).toBe('cancelled')
    expect(evidence.exit).toMatchObject({ code: null, signal: 9, reason: 'cancelled' })
    expect(evidence.exit).not.toHaveProperty('finalization')
    expect(existsSync(marker)).toBe(false)
  })
})
