import { compareCaptures } from '../compare/compare-captures.js'
import type { Evidence } from '../evidence/schema.js'
import { escapeControlCharacters } from '../internal/escape-controls.js'

/** An unknown an authority made from a capture would carry, with what removes it. */
export interface AuthorityUnknown {
  readonly dimension: string
  /** The reason code, as the Evidence and the comparison spell it. */
  readonly reason: string
  readonly detail: string
  /** What to change so that the next capture does not carry it. */
  readonly remedy: string
}

const RECAPTURE = 'run the test again; if it comes back, see docs/comparison.md#unknown-never-equal'

/** What removes each unknown, by its reason; anything else gets the general advice. */
const REMEDIES: Readonly<Record<string, string>> = {
  unrelated_process_unverified:
    'a process REA may not read started during the capture and could not be proven foreign (docs/ownership.md#processes-rea-cannot-read): run the test again, or where REA can read every process (as root, in a container)',
  related_process_unverified:
    'a process of the capture that REA may not read was still alive: let the program wait for its children before it exits',
  settlement_unverifiable:
    'processes of the capture could not be checked at the end: let the program wait for its children before it exits',
  cleanup_incomplete:
    'a process of the capture could not be killed or confirmed gone: let the program end its children',
  process_inspection_unavailable:
    'this host cannot inspect processes: record the authority on Linux or macOS',
  cleanup_unsupported: 'this host cannot inspect processes: record the authority on Linux or macOS',
  drain_incomplete: `the terminal closed before REA had read everything: ${RECAPTURE}`,
  terminal_drain_incomplete: `the terminal closed before REA had read everything: ${RECAPTURE}`,
  truncated: 'a budget dropped output or frames: raise limits.output_bytes or limits.rendered_bytes',
  terminal_incomplete:
    'output is missing from the stream (its detail says why): for a budget raise limits.output_bytes, for an incomplete drain run the test again',
  terminal_output_omitted: 'a budget dropped output: raise limits.output_bytes',
  frame_omitted: 'a checkpoint screen was not kept: raise limits.rendered_bytes',
  normalization_hold_limit:
    'a line longer than 64 KiB stayed undecided under a redaction: make the redaction’s line end sooner, or drop it',
  reply_limit_reached:
    'the program asked the terminal more than 1,000 questions: turn terminal.answer_queries off',
  exit_not_observed: `the program’s exit was never reported: ${RECAPTURE}`,
  capture_ended_early:
    'the capture was cancelled or failed inside REA: fix what its failure says and run again',
  delivery_unverified: `REA could not verify that a signal event reached the program: ${RECAPTURE}`,
  after_checkpoint_missing:
    'the filesystem was not observed after the run: raise timeout_ms, or see the failure',
  enumeration_incomplete:
    'an observed folder was not listed to its end: raise limits.file_count or limits.filesystem_depth',
  enumeration_failed: 'an observed folder could not be read: give the test read access to it',
  digest_unavailable: 'a file was not hashed whole: raise limits.file_bytes',
  journal_incomplete: `observations are missing from the journal: ${RECAPTURE}`,
}

/**
 * The unknowns an authority made from `capture` would carry: what comparing the capture with itself cannot call
 * equal, every dimension (residual unknowns, unverified deliveries, omitted frames, an incomplete journal …), minus
 * the reasons `accepted` names. Such an authority would compare unknown with every later capture, whatever the
 * program does: a first recording, `-u` and an accepted pending capture refuse it unless the user named the reason.
 */
export function unknownsInAuthority(capture: Evidence, accepted: readonly string[] = []): AuthorityUnknown[] {
  const comparison = compareCaptures(capture, capture, { timing: 'strict' })
  const seen = new Set<string>()
  return comparison.unknowns.flatMap((unknown) => {
    const key = `${unknown.dimension}:${unknown.reason}`
    if (accepted.includes(unknown.reason) || seen.has(key)) {
      return []
    }
    seen.add(key)
    return [{ ...unknown, remedy: REMEDIES[unknown.reason] ?? RECAPTURE }]
  })
}

/** Each unknown on a line of its own, by dimension and reason code, with what removes it beneath: for messages. */
export function describeAuthorityUnknowns(unknowns: readonly AuthorityUnknown[]): string[] {
  return unknowns.flatMap((unknown) => [
    `  - ${unknown.dimension}: ${unknown.reason} (${escapeControlCharacters(unknown.detail)})`,
    `    To remove it: ${unknown.remedy}.`,
  ])
}

/** The reason codes of `unknowns`, each once, in order: what the user names to accept them. */
export function unknownReasons(unknowns: readonly AuthorityUnknown[]): string[] {
  return [...new Set(unknowns.map((unknown) => unknown.reason))]
}
