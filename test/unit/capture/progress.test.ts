import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import {
  PROGRESS_HEARTBEAT_MS,
  PROGRESS_INTERVAL_MS,
  ProgressReporter,
  type CleanupStates,
  type ProgressRecord,
} from '../../../src/capture/progress.js'

const CLEANUP: CleanupStates = {
  owned_processes: 'completed',
  renderer: 'disposed',
  temporary_root: 'removed',
}

interface Delivered {
  readonly atMs: number
  readonly record: ProgressRecord
}

/** A reporter whose records are collected with the (fake) time they were delivered at. */
function setup() {
  const startMs = performance.now()
  const nowMs = () => Math.round(performance.now() - startMs)
  const delivered: Delivered[] = []
  const reporter = new ProgressReporter((record) => delivered.push({ atMs: nowMs(), record }), nowMs)
  const records = () => delivered.map((entry) => entry.record)
  return { reporter, delivered, records }
}

const counts = (frames: number, samples: number, interactions: number) => ({ frames, samples, interactions })

beforeEach(() => {
  vi.useFakeTimers()
})

afterEach(() => {
  vi.useRealTimers()
})

describe('ProgressReporter', () => {
  test('uses a 100 ms interval and a 1000 ms heartbeat', () => {
    expect([PROGRESS_INTERVAL_MS, PROGRESS_HEARTBEAT_MS]).toEqual([100, 1000])
  })

  describe('update', () => {
    test('delivers the first update immediately', () => {
      const { reporter, records } = setup()
      reporter.update('running', counts(1, 2, 3))
      expect(records()).toEqual([
        {
          phase: 'running',
          completed: 6,
          total: null,
          message: 'elapsed_ms=0 frames=1 samples=2 interactions=3',
          sequence: 1,
        },
      ])
    })

    test('merges updates within the interval into one record carrying the latest phase and counts', () => {
      const { reporter, delivered, records } = setup()
      reporter.update('prepare')
      vi.advanceTimersByTime(10)
      reporter.update('running', counts(1, 0, 0))
      vi.advanceTimersByTime(10)
      reporter.update('settling', counts(2, 3, 4))
      vi.advanceTimersByTime(PROGRESS_INTERVAL_MS - 21)
      expect(records()).toHaveLength(1)
      vi.advanceTimersByTime(1)
      expect(delivered).toEqual([
        expect.objectContaining({ atMs: 0 }),
        {
          atMs: 100,
          record: {
            phase: 'settling',
            completed: 9,
            total: null,
            message: 'elapsed_ms=100 frames=2 samples=3 interactions=4',
            sequence: 2,
          },
        },
      ])
    })

    test('delivers at most one intermediate record per interval under a stream of updates', () => {
      const { reporter, delivered } = setup()
      for (let step = 0; step <= 100; step++) {
        reporter.update('running', counts(step, 0, 0))
        vi.advanceTimersByTime(10)
      }
      const times = delivered.map((entry) => entry.atMs)
      expect(times).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000])
      const gaps = times.slice(1).map((time, index) => time - times[index]!)
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(PROGRESS_INTERVAL_MS)
    })

    test('delivers an update immediately once the interval since the last record has passed', () => {
      const { reporter, delivered } = setup()
      reporter.update('running')
      vi.advanceTimersByTime(250)
      reporter.update('settling')
      expect(delivered.map((entry) => [entry.atMs, entry.record.phase])).toEqual([
        [0, 'running'],
        [250, 'settling'],
      ])
    })

    test('sends a heartbeat with unchanged status after the heartbeat interval without updates', () => {
      const { reporter, delivered } = setup()
      reporter.update('running', counts(1, 1, 1))
      vi.advanceTimersByTime(PROGRESS_HEARTBEAT_MS - 1)
      expect(delivered).toHaveLength(1)
      vi.advanceTimersByTime(1)
      vi.advanceTimersByTime(PROGRESS_HEARTBEAT_MS)
      expect(delivered).toEqual([
        expect.objectContaining({ atMs: 0 }),
        {
          atMs: 1000,
          record: {
            phase: 'running',
            completed: 3,
            total: null,
            message: 'elapsed_ms=1000 frames=1 samples=1 interactions=1',
            sequence: 2,
          },
        },
        expect.objectContaining({ atMs: 2000, record: expect.objectContaining({ sequence: 3 }) }),
      ])
    })

    test('counts the heartbeat interval from the latest delivered record', () => {
      const { reporter, delivered } = setup()
      reporter.update('running')
      vi.advanceTimersByTime(500)
      reporter.update('running', counts(1, 0, 0))
      vi.advanceTimersByTime(PROGRESS_HEARTBEAT_MS - 1)
      expect(delivered.map((entry) => entry.atMs)).toEqual([0, 500])
      vi.advanceTimersByTime(1)
      expect(delivered.map((entry) => entry.atMs)).toEqual([0, 500, 1500])
    })

    test('keeps the previous counts when an update gives none', () => {
      const { reporter, records } = setup()
      reporter.update('running', counts(4, 5, 6))
      vi.advanceTimersByTime(200)
      reporter.update('settling')
      expect(records()[1]).toMatchObject({
        phase: 'settling',
        completed: 15,
        message: 'elapsed_ms=200 frames=4 samples=5 interactions=6',
      })
    })

    test('numbers records from 1, one more per delivered record', () => {
      const { reporter, records } = setup()
      reporter.update('prepare')
      vi.advanceTimersByTime(5)
      reporter.update('running')
      reporter.update('running', counts(1, 0, 0))
      vi.advanceTimersByTime(PROGRESS_INTERVAL_MS)
      vi.advanceTimersByTime(PROGRESS_HEARTBEAT_MS)
      reporter.finish('exited', CLEANUP)
      expect(records().map((record) => record.sequence)).toEqual([1, 2, 3, 4])
    })

    test('leaves terminal, disposition and cleanup out of intermediate records', () => {
      const { reporter, records } = setup()
      reporter.update('running')
      vi.advanceTimersByTime(PROGRESS_HEARTBEAT_MS)
      for (const record of records()) {
        expect(Object.keys(record).sort()).toEqual(['completed', 'message', 'phase', 'sequence', 'total'])
      }
      expect(records()).toHaveLength(2)
    })
  })

  describe('finish', () => {
    test('delivers the terminal record immediately, even within the interval', () => {
      const { reporter, delivered } = setup()
      reporter.update('running', counts(1, 0, 0))
      vi.advanceTimersByTime(10)
      reporter.finish('timeout', CLEANUP, counts(2, 3, 1))
      expect(delivered).toEqual([
        expect.objectContaining({ atMs: 0 }),
        {
          atMs: 10,
          record: {
            phase: 'cleanup',
            completed: 6,
            total: null,
            message: 'elapsed_ms=10 frames=2 samples=3 interactions=1',
            sequence: 2,
            terminal: true,
            disposition: 'timeout',
            cleanup: CLEANUP,
          },
        },
      ])
    })

    test('delivers a terminal record as the first record when no update came before', () => {
      const { reporter, records } = setup()
      reporter.finish('failed', {
        owned_processes: 'not_needed',
        renderer: 'not_created',
        temporary_root: 'not_created',
      })
      expect(records()).toEqual([
        expect.objectContaining({ phase: 'cleanup', terminal: true, disposition: 'failed', sequence: 1 }),
      ])
    })

    test('keeps the latest counts when finish gives none', () => {
      const { reporter, records } = setup()
      reporter.update('running', counts(7, 8, 9))
      reporter.finish('exited', CLEANUP)
      expect(records()[1]).toMatchObject({
        completed: 24,
        message: 'elapsed_ms=0 frames=7 samples=8 interactions=9',
      })
    })

    test('discards a pending intermediate update', () => {
      const { reporter, records } = setup()
      reporter.update('running')
      vi.advanceTimersByTime(10)
      reporter.update('settling', counts(5, 0, 0))
      reporter.finish('exited', CLEANUP)
      vi.advanceTimersByTime(10 * PROGRESS_HEARTBEAT_MS)
      expect(records().map((record) => record.phase)).toEqual(['running', 'cleanup'])
      expect(records()[1]).toMatchObject({ completed: 5, sequence: 2 })
    })

    test('delivers nothing after the terminal record and leaves no timer', () => {
      const { reporter, records } = setup()
      reporter.update('running')
      reporter.finish('cancelled', CLEANUP)
      reporter.update('settling', counts(1, 1, 1))
      reporter.finish('exited', CLEANUP)
      vi.advanceTimersByTime(10 * PROGRESS_HEARTBEAT_MS)
      expect(records()).toHaveLength(2)
      expect(records()[1]).toMatchObject({ terminal: true, disposition: 'cancelled' })
      expect(vi.getTimerCount()).toBe(0)
    })
  })

  describe('dispose', () => {
    test('stops the heartbeat and a pending update without delivering a record', () => {
      const { reporter, records } = setup()
      reporter.update('running')
      vi.advanceTimersByTime(10)
      reporter.update('settling')
      expect(vi.getTimerCount()).toBe(1)
      reporter.dispose()
      expect(vi.getTimerCount()).toBe(0)
      reporter.update('running')
      reporter.finish('failed', CLEANUP)
      vi.advanceTimersByTime(10 * PROGRESS_HEARTBEAT_MS)
      expect(records().map((record) => record.phase)).toEqual(['running'])
    })
  })

  describe('without a delivery function', () => {
    test('starts no timer and never reads the clock', () => {
      const elapsedMs = vi.fn(() => 0)
      const reporter = new ProgressReporter(undefined, elapsedMs)
      reporter.update('running', counts(1, 1, 1))
      vi.advanceTimersByTime(10)
      reporter.update('settling')
      expect(vi.getTimerCount()).toBe(0)
      reporter.finish('exited', CLEANUP)
      expect(vi.getTimerCount()).toBe(0)
      expect(elapsedMs).not.toHaveBeenCalled()
    })

    test('keeps a heartbeat timer while a delivery function is given', () => {
      const { reporter } = setup()
      reporter.update('running')
      expect(vi.getTimerCount()).toBe(1)
    })
  })
})
