/** The skip reason of an event whose wait ran out (`within_ms`, or a screen that can no longer be watched). */
export const WAIT_TIMED_OUT = 'wait_timed_out'

/**
 * Who ended an event's chance to run, as a code beside the skip sentence: its own wait ran out
 * (`wait_timed_out`), REA's `timeout_ms` or `idle_timeout_ms` ended the run (`deadline`), the caller cancelled
 * the capture (`cancelled`), REA itself failed (`run_failed`), or the target had exited (`target_exited`).
 */
export const SKIP_CAUSES = ['wait_timed_out', 'deadline', 'cancelled', 'run_failed', 'target_exited'] as const
export type SkipCause = (typeof SKIP_CAUSES)[number]

/** How a run ended, as it bears on the events it never reached. */
export type RunEndReason = 'exited' | 'timeout' | 'idle_timeout' | 'cancelled' | 'failed'

/** What the events a run ended before are recorded with: their cause and its sentence. */
export interface SkipEnding {
  readonly cause: Exclude<SkipCause, 'wait_timed_out'>
  /** Completes "… before the event was due" and the like: who ended the run. */
  readonly sentence: string
}

/** The deadlines as the scenario set them, for the sentence that names the one that fired. */
export interface ScenarioDeadlines {
  readonly timeout_ms: number
  readonly idle_timeout_ms: number | null
}

export function skipEnding(reason: RunEndReason, deadlines: ScenarioDeadlines): SkipEnding {
  switch (reason) {
    case 'exited':
      return { cause: 'target_exited', sentence: 'the target had exited' }
    case 'timeout':
      return { cause: 'deadline', sentence: `REA's timeout_ms (${deadlines.timeout_ms} ms) ended the run` }
    case 'idle_timeout':
      return {
        cause: 'deadline',
        sentence: `REA's idle_timeout_ms (${String(deadlines.idle_timeout_ms)} ms without output) ended the run`,
      }
    case 'cancelled':
      return { cause: 'cancelled', sentence: 'the capture was cancelled' }
    case 'failed':
      return { cause: 'run_failed', sentence: 'REA failed and ended the run' }
  }
}

/**
 * An event's skip cause: the recorded one, or for Evidence written before causes were recorded, what its
 * sentence and the run's end say (every skip but a timed-out wait then read "the target had exited", also when
 * a deadline or cancellation had ended the run).
 */
export function skipCause(
  interaction: { readonly reason?: string | undefined; readonly cause?: SkipCause | undefined },
  runEnd: RunEndReason,
): SkipCause {
  if (interaction.cause !== undefined) {
    return interaction.cause
  }
  if (interaction.reason === WAIT_TIMED_OUT) {
    return 'wait_timed_out'
  }
  return skipEnding(runEnd, { timeout_ms: 0, idle_timeout_ms: null }).cause
}
