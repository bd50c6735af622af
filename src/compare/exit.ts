import type { Evidence } from '../evidence/schema.js'
import type { DimensionResult, TimingPolicy } from './comparison-schema.js'
import { DimensionFindings } from './findings.js'
import { bothSides, endedEarlyResult } from './unknowns/ended-early.js'
import { compareFromSync, countedFrom } from './sync-points.js'

/**
 * The exit dimension: reason, code and signal, the finalization record and the exit time under the timing
 * policy. A capture whose exit was never observed, or that REA itself failed, cannot prove an equal exit.
 */
export function compareExit(
  authority: Evidence,
  reconstruction: Evidence,
  policy: TimingPolicy,
): DimensionResult {
  const ended = endedEarlyResult('exit', authority, reconstruction)
  if (ended !== null) {
    return ended
  }
  const findings = new DimensionFindings('exit')
  const x = authority.exit
  const y = reconstruction.exit
  const differ = exitDiffer(findings)

  for (const [side, evidence] of bothSides(authority, reconstruction)) {
    if (evidence.exit.signal === null) {
      findings.unknown('exit_not_observed', `the ${side}'s exit was not observed`)
    }
  }
  if (x.reason !== y.reason) {
    differ('reason', 'the run ended for a different reason', x.reason, y.reason)
  }
  // An unobserved exit has null code and signal: comparing those would only compare the absence of data.
  if (x.signal !== null && y.signal !== null) {
    if (x.code !== y.code) {
      differ('code', 'the exit code differs', x.code, y.code)
    }
    if (x.signal !== y.signal) {
      differ('signal', 'the root ended by a different signal', x.signal, y.signal)
    }
    // A deadline is counted from launch, so an exit by one is too; any other exit from the last sync point.
    const byDeadline = x.reason === 'timeout' || x.reason === 'idle_timeout'
    const times = compareFromSync(authority, reconstruction, policy, x, y, byDeadline)
    findings.time(
      'exit.at_ms',
      `the root exited at a different time${countedFrom(times)}`,
      times.authority,
      times.reconstruction,
      policy,
      { kind: 'exit', field: 'at_ms' },
    )
  }
  compareFinalization(findings, policy, x.finalization, y.finalization)
  return findings.result()
}

type Finalization = Evidence['exit']['finalization']

/** Records a differing field of the exit record, located at `exit.<field>`. */
function exitDiffer(findings: DimensionFindings) {
  return (field: string, summary: string, p: number | string | null, q: number | string | null): void =>
    findings.differ(`exit.${field}`, summary, p, q, { kind: 'exit', field })
}

/** The finalization interval: attempted on both sides or neither, its exit code, duration and each signal. */
function compareFinalization(
  findings: DimensionFindings,
  policy: TimingPolicy,
  f: Finalization,
  g: Finalization,
): void {
  const differ = exitDiffer(findings)
  if ((f === undefined) !== (g === undefined)) {
    differ(
      'finalization',
      `a finalization interval was attempted only in the ${f === undefined ? 'reconstruction' : 'authority'}`,
      f === undefined ? null : 'attempted',
      g === undefined ? null : 'attempted',
    )
  } else if (f !== undefined && g !== undefined) {
    if (f.exit_code !== g.exit_code) {
      differ('finalization.exit_code', 'the exit code during finalization differs', f.exit_code, g.exit_code)
    }
    findings.time(
      'exit.finalization.elapsed_ms',
      'finalization took a different time',
      f.elapsed_ms,
      g.elapsed_ms,
      policy,
      { kind: 'exit', field: 'finalization.elapsed_ms' },
    )
    const count = Math.max(f.signals.length, g.signals.length)
    for (let index = 0; index < count; index++) {
      const s = f.signals[index]
      const t = g.signals[index]
      const field = `finalization.signals[${index}]`
      if (s === undefined || t === undefined || s.signal !== t.signal) {
        differ(
          `${field}.signal`,
          `finalization signal ${index + 1} differs`,
          s?.signal ?? null,
          t?.signal ?? null,
        )
        continue
      }
      if (s.delivery !== t.delivery) {
        differ(
          `${field}.delivery`,
          `${s.signal} during finalization had another delivery`,
          s.delivery,
          t.delivery,
        )
      }
      findings.time(
        `exit.${field}.sent_at_ms`,
        `${s.signal} during finalization was sent at a different time`,
        s.sent_at_ms,
        t.sent_at_ms,
        policy,
        { kind: 'exit', field: `${field}.sent_at_ms` },
      )
    }
  }
}
