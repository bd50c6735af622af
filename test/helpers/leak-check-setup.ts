import { afterEach, expect } from 'vitest'
import { findTokenCarriers, WORKER_MARKER_VARIABLE } from './token-carriers.js'

// Captures inherit this worker's marker, so the check below sees only what this worker's tests started,
// even while other workers run their own captures in parallel.
process.env[WORKER_MARKER_VARIABLE] = String(process.pid)
const marker = `${WORKER_MARKER_VARIABLE}=${process.pid}`

afterEach(() => {
  const leaked = findTokenCarriers(marker)
  for (const carrier of leaked) {
    try {
      process.kill(carrier.pid, 'SIGKILL')
    } catch {
      // Already gone; the test fails below either way.
    }
  }
  expect(leaked, 'processes carrying a REA_RUN_TOKEN outlived their capture').toEqual([])
})
