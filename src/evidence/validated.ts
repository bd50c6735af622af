import type { Evidence } from './schema.js'

/**
 * Evidence objects this process produced (`captureProcess`) or already validated (`parseEvidence`). Matchers
 * skip re-validating them: a test's `expect(await captureProcess(s)).toMatchCapture()` would otherwise parse
 * and digest every capture a second time. A value that is not one of these objects is always validated.
 */
const known = new WeakSet<object>()

export function markValidated<T extends Evidence>(evidence: T): T {
  known.add(evidence)
  return evidence
}

export function isValidated(value: unknown): value is Evidence {
  return typeof value === 'object' && value !== null && known.has(value)
}
