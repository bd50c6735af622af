import type { Evidence } from '../../evidence/schema.js'
import type { Dimension, DimensionResult } from '../comparison-schema.js'
import { DimensionFindings } from '../findings.js'

/**
 * Why a side's exit and event outcomes describe REA ending the run rather than the command, or null. A failed
 * capture (REA's own error) or a cancelled one (the caller aborted) stopped the command; comparing how it ended
 * would compare REA's intervention, so those fields are unknown, never different.
 */
export function endedEarly(authority: Evidence, reconstruction: Evidence): string | null {
  for (const [side, evidence] of bothSides(authority, reconstruction)) {
    if (evidence.disposition === 'failed') {
      return `the ${side} capture failed inside REA (${evidence.failure ?? 'no detail'}), so it ended the command itself`
    }
    if (evidence.disposition === 'cancelled') {
      return `the ${side} capture was cancelled, so REA ended the command itself`
    }
  }
  return null
}

/**
 * The result of a dimension that describes how the run ended (exit, interaction, filesystem, process) when a
 * side ended early: unknown, with the reason. Null when both sides ran to their own end.
 */
export function endedEarlyResult(
  dimension: Dimension,
  authority: Evidence,
  reconstruction: Evidence,
): DimensionResult | null {
  const ended = endedEarly(authority, reconstruction)
  if (ended === null) {
    return null
  }
  const findings = new DimensionFindings(dimension)
  findings.unknown('capture_ended_early', ended)
  return findings.result()
}

/** Both captures with the side each is, for messages that must say which one. */
export function bothSides(authority: Evidence, reconstruction: Evidence) {
  return [
    ['authority', authority],
    ['reconstruction', reconstruction],
  ] as const
}
