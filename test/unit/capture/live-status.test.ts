import { describe, expect, test } from 'vitest'
import { LiveStatus, type CaptureStatus } from '../../../src/capture/live-status.js'
import { waitFor } from '../../helpers/wait-for.js'

describe('LiveStatus', () => {
  test('hands out a status at once on each phase, then on its interval, until stopped', async () => {
    const seen: CaptureStatus[] = []
    let bytes = 0
    const status = new LiveStatus(
      (each) => seen.push(each),
      () => 42,
      3,
    )
    status.enter('prepare')
    expect(seen).toEqual([{ phase: 'prepare', elapsedMs: 42, outputBytes: 0, eventCount: 3, dueEvent: null }])
    status.enter('running', { outputBytes: () => (bytes += 10), dueEvent: () => undefined })
    expect(seen.at(-1)).toMatchObject({ phase: 'running', outputBytes: 10 })
    await waitFor(() => seen.length >= 4, { timeoutMs: 10_000 })
    status.stop()
    const count = seen.length
    status.enter('cleanup')
    await new Promise((resolve) => setImmediate(resolve))
    expect(seen).toHaveLength(count)
  })

  test('without a receiver, starts no timer and builds nothing', () => {
    const status = new LiveStatus(
      undefined,
      () => {
        throw new Error('read the clock')
      },
      0,
    )
    status.enter('prepare')
    status.stop()
  })
})
