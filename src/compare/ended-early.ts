import type { Evidence } from '../evidence/schema.js'

/**
 * Why a side's exit and event outcomes describe REA ending the run rather than the command, or null. A failed
 * capture (REA's own error) or a cancelled one (the caller aborted) stopped the command; comparing how it ended
 * would compare REA's intervention, so those fields are unknown, never different.
 */
export function endedEarly(authority: Evidence, reconstruction: Evidence): string | null {
  for (const [side, evidence] of [
    ['authority', authority],
    ['reconstruction', reconstruction],
  ] as const) {
    if (evidence.disposition === 'failed') {
      return `the ${side} capture failed inside REA (${evidence.failure ?? 'no detail'}), so it ended the command itself`
    }
    if (evidence.disposition === 'cancelled') {
      return `the ${side} capture was cancelled, so REA ended the command itself`
    }
  }
  return null
}
