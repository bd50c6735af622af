import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { captureProcess, type ProgressRecord } from '../../src/index.js'
import { program } from '../helpers/fixtures.js'

describe('captureProcess deadlines and cancellation', () => {
  test('kills the root at timeout_ms and records a timeout without an exit code', async () => {
    const evidence = await captureProcess({ executable: 'sleep', arguments: ['30'], timeout_ms: 300 })
    expect(evidence.disposition).toBe('timeout')
    expect(evidence.exit).toMatchObject({ code: null, signal: 9, reason: 'timeout' })
    expect(evidence.exit.finalization).toBeUndefined()
  })

  test('kills the root after idle_timeout_ms without output', async () => {
    const evidence = await captureProcess({
      executable: 'bash',
      arguments: ['-c', 'echo started; sleep 30'],
      idle_timeout_ms: 300,
    })
    expect(evidence.disposition).toBe('idle_timeout')
    expect(evidence.exit).toMatchObject({ code: null, signal: 9, reason: 'idle_timeout' })
    expect(evidence.terminal.chunks.map((chunk) => chunk.data).join('')).toBe('started\r\n')
  })

  test('cancels through the AbortSignal and still returns Evidence', async () => {
    const controller = new AbortController()
    const evidence = await captureProcess(
      { executable: 'sleep', arguments: ['30'] },
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
  })

  test('cancels at once when the signal is already aborted', async () => {
    const evidence = await captureProcess(
      { executable: 'sleep', arguments: ['30'] },
      { signal: AbortSignal.abort() },
    )
    expect(evidence.disposition).toBe('cancelled')
  })

  test('starts nothing when the signal was aborted before the launch, and says so', async () => {
    const marker = path.join(tmpdir(), `rea-never-${process.pid}-${Date.now()}`)
    const evidence = await captureProcess(
      { executable: program('touch-marker.mjs'), arguments: [marker] },
      { signal: AbortSignal.abort() },
    )
    expect(evidence).toMatchObject({
      disposition: 'cancelled',
      exit: { code: null, signal: null, reason: 'cancelled' },
      process: { root: null },
    })
    expect(existsSync(marker)).toBe(false)
  })
})

describe('captureProcess cleanup', () => {
  test('kills a detached descendant that outlived the root and records it', async () => {
    const evidence = await captureProcess({ executable: program('detach-sleeper.sh'), settle_ms: 50 })
    expect(evidence.exit.code).toBe(0)
    expect(evidence.settlement.status).toBe('cleanup_needed')
    expect(evidence.cleanup.owned_processes).toBe('completed')
    expect(evidence.cleanup.killed).toContainEqual(
      expect.objectContaining({ command: 'sleep', delivery: 'signaled', confirmed_gone: true }),
    )
  })

  test('records a quiet tree when nothing outlives the root', async () => {
    const evidence = await captureProcess({ executable: 'true' })
    expect(evidence.settlement.status).toBe('quiesced')
    expect(evidence.cleanup).toMatchObject({ owned_processes: 'not_needed', killed: [] })
  })
})

describe('captureProcess progress', () => {
  test('reports phases with counts and ends with one terminal record, never showing child output', async () => {
    const records: ProgressRecord[] = []
    await captureProcess(
      { executable: 'bash', arguments: ['-c', 'echo progress-secret-4711; sleep 0.4; echo done'] },
      { onProgress: (record) => records.push(record) },
    )
    expect(records[0]).toMatchObject({ phase: 'prepare', sequence: 1, total: null })
    expect(records.map((record) => record.sequence)).toEqual(records.map((_, index) => index + 1))
    const terminal = records.filter((record) => record.terminal === true)
    expect(terminal).toHaveLength(1)
    expect(records.at(-1)).toMatchObject({
      phase: 'cleanup',
      terminal: true,
      disposition: 'exited',
      cleanup: { owned_processes: 'not_needed', renderer: 'disposed', temporary_root: 'not_created' },
    })
    for (const record of records) {
      const match = /^elapsed_ms=(\d+) frames=(\d+) samples=(\d+) interactions=(\d+)$/.exec(record.message)
      expect(match, record.message).not.toBeNull()
      expect(record.completed).toBe(Number(match![2]) + Number(match![3]) + Number(match![4]))
    }
    expect(JSON.stringify(records)).not.toContain('progress-secret-4711')
  })
})
