import { afterEach, describe, expect, test } from 'vitest'
import { coverageFromSink, setCoverageSink } from '../../../src/coverage/coverage-sink.js'

afterEach(() => setCoverageSink(undefined))

describe('coverageFromSink', () => {
  test('gives nothing when no runner registered a sink', async () => {
    await expect(coverageFromSink()).resolves.toBeUndefined()
  })

  test("gives the registered folder once the runner's side is hooked", async () => {
    let hooked: (folder: string) => void = () => undefined
    setCoverageSink({ directory: new Promise((resolve) => (hooked = resolve)) })
    const asked = coverageFromSink()
    hooked('/tmp/worker-folder')
    await expect(asked).resolves.toEqual({ directory: '/tmp/worker-folder' })
  })

  test('gives nothing, and no unhandled rejection, when the runner could not be hooked', async () => {
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    try {
      setCoverageSink({ directory: Promise.reject(new Error('no takeCoverage')) })
      // Two turns of the event loop: long enough for Node to report a rejection nobody handled.
      await new Promise((resolve) => setImmediate(resolve))
      await new Promise((resolve) => setImmediate(resolve))
      await expect(coverageFromSink()).resolves.toBeUndefined()
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', onUnhandled)
    }
  })

  test('is one sink for every copy of REA in the worker (it lives on globalThis under a registered symbol)', async () => {
    setCoverageSink({ directory: Promise.resolve('/tmp/shared') })
    const holder = globalThis as Record<symbol, { directory: Promise<string> } | undefined>
    await expect(holder[Symbol.for('rea-capture.coverage-sink')]?.directory).resolves.toBe('/tmp/shared')
  })
})
