import { afterEach, beforeEach, describe, expect, test, vi, type Mock } from 'vitest'
import { MAX_TIMER_MS, setLongTimeout } from '../../../src/internal/long-timer.js'

describe('setLongTimeout', () => {
  describe('with fake timers', () => {
    let setTimeoutSpy: Mock<typeof setTimeout>
    let fakeSetTimeout: typeof setTimeout

    beforeEach(() => {
      vi.useFakeTimers()
      fakeSetTimeout = globalThis.setTimeout
      // Like Node, the fake clock fires an over-long timer after 1 ms; fail loudly instead of spinning through
      // billions of re-armed timers. Put in place by hand, not with vi.spyOn: Vitest restores a spy once more
      // when the file ends, to what it replaced, the fake clock's setTimeout, and the files that ran after this
      // one in the same worker (isolate: false) then waited forever on their timers.
      setTimeoutSpy = vi.fn((callback: () => void, delayMs?: number) => {
        if (delayMs !== undefined && delayMs > MAX_TIMER_MS) {
          throw new Error(`setTimeout called with ${delayMs} ms, over Node's limit`)
        }
        return fakeSetTimeout(callback, delayMs)
      }) as unknown as Mock<typeof setTimeout>
      globalThis.setTimeout = setTimeoutSpy
    })

    afterEach(() => {
      globalThis.setTimeout = fakeSetTimeout
      vi.useRealTimers()
    })

    test.for([1, 1000, MAX_TIMER_MS - 1, MAX_TIMER_MS, MAX_TIMER_MS + 1, 2 ** 31 + 5000, 3 * 2 ** 31 + 7])(
      'calls back after %i ms and not a millisecond earlier',
      (delayMs) => {
        const callback = vi.fn()
        setLongTimeout(callback, delayMs)
        vi.advanceTimersByTime(delayMs - 1)
        expect(callback).not.toHaveBeenCalled()
        vi.advanceTimersByTime(1)
        expect(callback).toHaveBeenCalledOnce()
        vi.advanceTimersByTime(10 * MAX_TIMER_MS)
        expect(callback).toHaveBeenCalledOnce()
      },
    )

    test.for([0, -5])(
      'calls back on the next timer turn for a delay of %i ms, never synchronously',
      (delayMs) => {
        const callback = vi.fn()
        setLongTimeout(callback, delayMs)
        expect(callback).not.toHaveBeenCalled()
        vi.advanceTimersByTime(1)
        expect(callback).toHaveBeenCalledOnce()
      },
    )

    test('chains timers no longer than MAX_TIMER_MS', () => {
      const callback = vi.fn()
      setLongTimeout(callback, 5 * 2 ** 31)
      vi.runAllTimers()
      const delays = setTimeoutSpy.mock.calls.map((call) => call[1])
      expect(callback).toHaveBeenCalledOnce()
      expect(delays.every((delay) => delay !== undefined && delay <= MAX_TIMER_MS)).toBe(true)
      expect(delays.reduce((total: number, delay) => total + (delay ?? 0), 0)).toBe(5 * 2 ** 31)
    })

    test('cancel before the first timer fires prevents the callback', () => {
      const callback = vi.fn()
      const cancel = setLongTimeout(callback, 1000)
      cancel()
      vi.advanceTimersByTime(2000)
      expect(callback).not.toHaveBeenCalled()
      expect(vi.getTimerCount()).toBe(0)
    })

    test('cancel after a chained timer was re-armed prevents the callback', () => {
      const callback = vi.fn()
      const cancel = setLongTimeout(callback, 2 ** 31 + 5000)
      vi.advanceTimersByTime(MAX_TIMER_MS + 1)
      expect(vi.getTimerCount()).toBe(1)
      cancel()
      expect(vi.getTimerCount()).toBe(0)
      vi.advanceTimersByTime(10_000)
      expect(callback).not.toHaveBeenCalled()
    })

    test('cancel after the callback ran is harmless', () => {
      const callback = vi.fn()
      const cancel = setLongTimeout(callback, 10)
      vi.advanceTimersByTime(10)
      expect(() => {
        cancel()
        cancel()
      }).not.toThrow()
      expect(callback).toHaveBeenCalledOnce()
    })
  })

  test('emits no TimeoutOverflowWarning for a delay past the Node limit', () => {
    const emitWarning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined)
    try {
      const callback = vi.fn()
      const cancel = setLongTimeout(callback, 2 ** 31 + 5000)
      cancel()
      expect(emitWarning).not.toHaveBeenCalled()
      expect(callback).not.toHaveBeenCalled()

      // Control: the spy does see Node's warning for an over-long plain timer.
      clearTimeout(setTimeout(() => undefined, 2 ** 31 + 5000))
      expect(emitWarning).toHaveBeenCalledWith(
        expect.stringContaining('does not fit'),
        'TimeoutOverflowWarning',
      )
    } finally {
      emitWarning.mockRestore()
    }
  })
})
