import type { Evidence } from '../evidence/schema.js'
import type { DimensionResult, TimingPolicy } from './comparison-schema.js'
import { bothSides, endedEarlyResult } from './unknowns/ended-early.js'
import { DimensionFindings } from './findings.js'

/**
 * The process dimension rests on how the run settled and whether REA had to clean up. Command names, sample
 * counts and root binding are shown for information only: the executable may differ by contract, and sampling
 * sees short-lived processes by luck. Pids and absolute times are never compared.
 */
export function compareProcess(
  authority: Evidence,
  reconstruction: Evidence,
  policy: TimingPolicy,
): DimensionResult {
  const ended = endedEarlyResult('process', authority, reconstruction)
  if (ended !== null) {
    return ended
  }
  const findings = new DimensionFindings('process')
  for (const [side, evidence] of bothSides(authority, reconstruction)) {
    if (evidence.settlement.status === 'unverifiable') {
      findings.unknown(
        'settlement_unverifiable',
        `the ${side}'s settlement could not be verified${evidence.settlement.reason === undefined ? '' : `: ${evidence.settlement.reason}`}`,
      )
    }
    if (
      evidence.cleanup.owned_processes === 'incomplete' ||
      evidence.cleanup.owned_processes === 'unsupported'
    ) {
      findings.unknown(
        `cleanup_${evidence.cleanup.owned_processes}`,
        `the ${side}'s owned-process cleanup was ${evidence.cleanup.owned_processes}`,
      )
    }
  }
  const x = authority.settlement
  const y = reconstruction.settlement
  if (x.status !== y.status && x.status !== 'unverifiable' && y.status !== 'unverifiable') {
    findings.differ('settlement.status', `the process group settled differently`, x.status, y.status, {
      kind: 'process',
      field: 'settlement.status',
    })
  } else if (x.status === y.status) {
    findings.time(
      'settlement.elapsed_ms',
      'settlement took a different time',
      x.elapsed_ms,
      y.elapsed_ms,
      policy,
      { kind: 'process', field: 'settlement.elapsed_ms' },
    )
  }
  const p = authority.cleanup.owned_processes
  const q = reconstruction.cleanup.owned_processes
  if (p !== q && isDecided(p) && isDecided(q)) {
    findings.differ(
      'cleanup.owned_processes',
      `owned-process cleanup was ${p} in the authority, ${q} in the reconstruction`,
      p,
      q,
      { kind: 'process', field: 'cleanup.owned_processes' },
    )
  }
  findings.note(
    `killed by cleanup: authority ${describeKilled(authority)}; reconstruction ${describeKilled(reconstruction)}`,
  )
  findings.note(
    `process samples: authority ${authority.process.samples.length}, reconstruction ${reconstruction.process.samples.length}`,
  )
  findings.note(
    `root binding: authority ${authority.process.root?.binding ?? 'not started'}, reconstruction ${reconstruction.process.root?.binding ?? 'not started'}`,
  )
  return findings.result()
}

const isDecided = (state: string): boolean => state === 'not_needed' || state === 'completed'

function describeKilled(evidence: Evidence): string {
  const commands = evidence.cleanup.killed.map((entry) => entry.command)
  return commands.length === 0 ? 'none' : commands.sort().join(', ')
}
