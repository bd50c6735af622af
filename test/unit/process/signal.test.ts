import { afterEach, describe, expect, test, vi } from 'vitest'
import type { StartIdentity } from '../../../src/process/identity.js'
import {
  deliverSignal,
  sendCheckedSignal,
  SIGNAL_DELIVERY_BOUND_MS,
  type SignalOutcome,
} from '../../../src/process/signal.js'

const identity: StartIdentity = { pid: 4242, start_ticks: 1, boot_id: 'boot' }
afterEach(() => vi.useRealTimers())

describe('deliverSignal', () => {
  test('returns the outcome of a delivery that settles within the bound', async () => {
    await expect(deliverSignal(identity, 'SIGTERM', () => ({ delivery: 'signaled' }))).resolves.toEqual({
      delivery: 'signaled',
    })
  })

  test('records a delivery that does not settle within 1000 ms as unverified and ignores its late result', async () => {
    vi.useFakeTimers()
    let finish!: (outcome: SignalOutcome) => void
    const late = new Promise<SignalOutcome>((resolve) => (finish = resolve))
    const outcome = deliverSignal(identity, 'SIGKILL', () => late)
    await vi.advanceTimersByTimeAsync(SIGNAL_DELIVERY_BOUND_MS)
    await expect(outcome).resolves.toEqual({
      delivery: 'unverified',
      reason: 'delivery did not settle within 1000 ms',
    })
    finish({ delivery: 'signaled' })
    await expect(outcome).resolves.toMatchObject({ delivery: 'unverified' })
  })

  test('records a failing check as unverified with the error', async () => {
    const outcome = await deliverSignal(identity, 'SIGTERM', () => {
      throw new Error('inspection failed')
    })
    expect(outcome).toEqual({ delivery: 'unverified', reason: 'signal error: Error: inspection failed' })
  })

  test('does not make one delivery wait for another', async () => {
    vi.useFakeTimers()
    const slow = deliverSignal(identity, 'SIGTERM', () => new Promise<SignalOutcome>(() => undefined))
    const fast = deliverSignal(identity, 'SIGKILL', () => ({ delivery: 'signaled' }))
    await expect(fast).resolves.toEqual({ delivery: 'signaled' })
    await vi.advanceTimersByTimeAsync(SIGNAL_DELIVERY_BOUND_MS)
    await expect(slow).resolves.toMatchObject({ delivery: 'unverified' })
  })
})

describe('sendCheckedSignal', () => {
  test.for([
    ['PID 0', 0],
    ['init', 1],
    ['REA’s own process', process.pid],
    ['REA’s parent', process.ppid],
  ])('refuses to signal %s whatever the record says', ([, pid]) => {
    const outcome = sendCheckedSignal({ pid: pid as number, start_ticks: 0, boot_id: 'x' }, 'SIGKILL')
    expect(outcome).toEqual({
      delivery: 'unverified',
      reason: `refused to signal protected process ${pid as number}`,
    })
  })
})
