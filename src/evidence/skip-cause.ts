import type { Interaction } from './schema.js'

/** The skip reason of an event whose wait ran out (`within_ms`, or a screen that can no longer be watched). */
export const WAIT_TIMED_OUT = 'wait_timed_out'

/**
 * Why an event was skipped, in words that do not depend on when REA noticed: its wait ran out, or the target had
 * exited first (every other skip reason says only at which point REA saw the exit).
 */
export type SkipCause = 'wait_timed_out' | 'target_exited'

export function skipCause(interaction: Pick<Interaction, 'reason'>): SkipCause {
  return interaction.reason === WAIT_TIMED_OUT ? 'wait_timed_out' : 'target_exited'
}
