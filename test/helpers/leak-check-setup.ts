import { afterEach, expect } from 'vitest'
import { findMarkerCarriers, WORKER_MARKER_VARIABLE } from './token-carriers.js'
import { waitFor } from './wait-for.js'

// Everything this worker starts inherits this marker (captures through their environment, helper processes
// through process.env), so the check below sees only this worker's processes, even while other workers run
// their own captures in parallel.
process.env[WORKER_MARKER_VARIABLE] = String(process.pid)
const marker = `${WORKER_MARKER_VARIABLE}=${process.pid}`

afterEach(async () => {
  // A helper killed at the end of a test may need a moment to die; a leaked one never does.
  const leaked = await waitFor(
    () => {
      const alive = findMarkerCarriers(marker)
      return alive.length === 0 ? [] : false
    },
    { timeoutMs: 3000, description: 'processes started by this test to exit' },
  ).catch(() => findMarkerCarriers(marker))
  for (const carrier of leaked) {
    try {
      process.kill(carrier.pid, 'SIGKILL')
    } catch {
      // Already gone; the test fails below either way.
    }
  }
  expect(leaked, 'processes started by this test outlived it').toEqual([])
})
