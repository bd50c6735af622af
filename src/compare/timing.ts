import { ReaError, type ReaIssue } from '../errors.js'
import { describeValue } from '../internal/zod-issues.js'
import {
  TIMING_POLICIES,
  type Comparison,
  type NamedTimingPolicy,
  type TimingPolicy,
  type TimingTolerance,
} from './comparison-schema.js'

/**
 * Two timing values (`at_ms`, `elapsed_ms`, `sent_at_ms`) differ under the tolerant policy only when they are
 * further apart than 500 ms and one is more than four times the other (75 % of the larger): authorities are
 * recorded on one machine and checked on others several times slower, and start-up and scheduling jitter does
 * not scale with the program, while a reconstruction that waits seconds longer, or dispatches an event in a
 * different phase of the run, still shows up. The matchers, the CLI and MCP share this default.
 */
export const TIMING_TOLERANCE = { min_ms: 500, fraction: 0.75 } as const

/** The tolerance each policy applies; `ignore` applies none because it compares no times. */
export function toleranceOf(policy: TimingPolicy): TimingTolerance {
  if (typeof policy === 'object') {
    return policy
  }
  switch (policy) {
    case 'tolerant':
      return { tolerance_ms: TIMING_TOLERANCE.min_ms, ratio: TIMING_TOLERANCE.fraction }
    case 'strict':
    case 'ignore':
      return { tolerance_ms: 0, ratio: 0 }
  }
}

/** The comparison document's `timing` record: the policy's name and the tolerance it applied. */
export function timingRecord(policy: TimingPolicy): Comparison['timing'] {
  const { tolerance_ms, ratio } = toleranceOf(policy)
  return { policy: typeof policy === 'object' ? 'tolerance' : policy, min_ms: tolerance_ms, fraction: ratio }
}

/**
 * Whether two timing values differ under the policy. A time on one side only (`null` on the other) always
 * differs: it says something was observed on one side only, not that it took longer. Under `ignore` no two
 * present times differ.
 */
export function timingDiffers(
  authority: number | null,
  reconstruction: number | null,
  policy: TimingPolicy,
): boolean {
  if (authority === null || reconstruction === null) {
    return authority !== reconstruction
  }
  if (policy === 'ignore') {
    return false
  }
  const { tolerance_ms, ratio } = toleranceOf(policy)
  const delta = Math.abs(authority - reconstruction)
  return delta > tolerance_ms && delta > ratio * Math.max(authority, reconstruction)
}

/** The policy in words, e.g. `tolerant (times differ beyond 250 ms and 50 % of the larger)`. */
export function describeTiming(timing: Comparison['timing']): string {
  switch (timing.policy) {
    case 'strict':
      return 'strict (times must be equal to the millisecond)'
    case 'ignore':
      return 'ignore (times are shown, never compared)'
    case 'tolerant':
    case 'tolerance':
      return `${timing.policy === 'tolerant' ? 'tolerant' : 'tolerance'} (times differ beyond ${timing.min_ms} ms and ${formatPercent(timing.fraction)} of the larger)`
  }
}

function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 1000) / 10} %`
}

/**
 * The problems of a timing policy given from outside (an option, a CLI flag, a tool argument): a named policy
 * (`tolerant`, `strict`, `ignore`) or an explicit tolerance `{ tolerance_ms, ratio }` with `tolerance_ms` a
 * non-negative integer and `ratio` a number from 0 to 1. `path` names the option in the issues.
 *
 * @example
 * timingPolicyIssues({ tolerance_ms: 500, ratio: 2 }, 'timing') // one issue at timing.ratio
 */
export function timingPolicyIssues(value: unknown, path: string): ReaIssue[] {
  if (typeof value === 'string') {
    return (TIMING_POLICIES as readonly string[]).includes(value)
      ? []
      : [{ path, rule: 'choice', message: `${CHOICES}: got ${describeValue(value)}` }]
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [{ path, rule: 'type', message: `${CHOICES}: got ${describeValue(value)}` }]
  }
  const issues: ReaIssue[] = []
  const fields = value as Record<string, unknown>
  for (const name of Object.keys(fields)) {
    if (name !== 'tolerance_ms' && name !== 'ratio') {
      issues.push({
        path: `${path}.${name}`,
        rule: 'unknown_key',
        message: 'is not a field of a timing tolerance (valid: tolerance_ms, ratio)',
      })
    }
  }
  const toleranceMs = fields['tolerance_ms']
  if (!Number.isSafeInteger(toleranceMs) || (toleranceMs as number) < 0) {
    issues.push({
      path: `${path}.tolerance_ms`,
      rule: toleranceMs === undefined ? 'required' : 'range',
      message: `must be a whole number of milliseconds, 0 or more: got ${describeValue(toleranceMs)}`,
    })
  }
  const ratio = fields['ratio']
  if (typeof ratio !== 'number' || !(ratio >= 0 && ratio <= 1)) {
    issues.push({
      path: `${path}.ratio`,
      rule: ratio === undefined ? 'required' : 'range',
      message: `must be a number from 0 to 1 (the share of the larger time two times may differ by): got ${describeValue(ratio)}`,
    })
  }
  return issues
}

const CHOICES = `must be ${TIMING_POLICIES.map((name) => JSON.stringify(name)).join(', ')} or { tolerance_ms, ratio }`

/**
 * Reads a timing policy given from outside, or throws INVALID_ARGUMENTS naming the option (`path`) and every
 * problem. `subject` opens the message; `hint` says how to write it where the syntax differs (a CLI flag).
 *
 * @example
 * compareCaptures(authority, reconstruction, { timing: parseTimingPolicy(input, 'timing', 'my-tool') })
 */
export function parseTimingPolicy(
  value: unknown,
  path: string,
  subject: string,
  hint?: string,
): TimingPolicy {
  const issues = timingPolicyIssues(value, path)
  if (issues.length > 0) {
    throw new ReaError('INVALID_ARGUMENTS', `${subject}: the timing policy is not valid.`, {
      issues,
      ...(hint === undefined ? {} : { hint }),
    })
  }
  if (typeof value === 'string') {
    return value as NamedTimingPolicy
  }
  const { tolerance_ms, ratio } = value as TimingTolerance
  return { tolerance_ms, ratio }
}
