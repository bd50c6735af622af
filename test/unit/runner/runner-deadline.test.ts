import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { RunnerDeadline } from '../../../src/runner/runner-deadline.js'
import { buildEvidence } from '../../helpers/build-evidence.js'
import { REPO_ROOT } from '../../helpers/fixtures.js'

const aborted = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) {
      resolve()
    } else {
      signal.addEventListener('abort', () => resolve(), { once: true })
    }
  })

describe('RunnerDeadline', () => {
  test("ends a capture before the runner's timeout, failing at the test's call, past REA's own frames", async () => {
    // The test started 10 s ago with a 1 s timeout: the deadline has passed.
    const beforeTimeout = new RunnerDeadline('Vitest', performance.now() - 10_000, 1000).signal()
    await aborted(beforeTimeout.signal)
    let error: unknown
    try {
      beforeTimeout.failIfEnded(buildEvidence([]))
    } catch (thrown) {
      error = thrown
    }
    const stack = (error as Error).stack ?? ''
    expect(stack).toMatch(/^ReaError: REA ended this capture 250 ms before Vitest's 1,000 ms test timeout/)
    const frames = stack.split('\n').filter((line) => line.trimStart().startsWith('at '))
    expect(frames[0]).toContain(path.join('test', 'unit', 'runner', 'runner-deadline.test.ts'))
    expect(frames.some((frame) => frame.includes(`${path.join(REPO_ROOT, 'src')}${path.sep}`))).toBe(false)
  })

  test('never ends a capture of a test without a timeout', () => {
    const beforeTimeout = new RunnerDeadline('Jest', performance.now(), undefined).signal()
    expect(beforeTimeout.signal.aborted).toBe(false)
    expect(() => beforeTimeout.failIfEnded(buildEvidence([]))).not.toThrow()
    beforeTimeout.dispose()
  })
})
