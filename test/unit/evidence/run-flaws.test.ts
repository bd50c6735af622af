import { describe, expect, test } from 'vitest'
import { runFlaws } from '../../../src/evidence/run-flaws.js'
import type { Evidence } from '../../../src/evidence/schema.js'
import { buildEvidence } from '../../helpers/build-evidence.js'

/** A capture that exited normally, changed by `change`. */
function capture(change: (evidence: Evidence) => void = () => undefined): Evidence {
  const evidence = structuredClone(buildEvidence([{ chunk: 'hello\r\n' }, { frame: 'retained' }]))
  change(evidence)
  return evidence
}

describe('runFlaws', () => {
  test('finds none in a run that went as its scenario expects', () => {
    expect(runFlaws(capture())).toEqual([])
  })

  test('names a cancelled capture', () => {
    expect(runFlaws(capture((evidence) => (evidence.disposition = 'cancelled')))).toEqual([
      { kind: 'cancelled' },
    ])
  })

  test('names a deadline unless the scenario gives the command a finalization interval to end in', () => {
    const timedOut = (finalizationMs: number) =>
      capture((evidence) => {
        evidence.exit = { ...evidence.exit, reason: 'timeout', code: null }
        evidence.commitments.comparison_contract.value.finalization_ms = finalizationMs
      })
    expect(runFlaws(timedOut(0))).toEqual([{ kind: 'deadline', reason: 'timeout', limit_ms: 30_000 }])
    expect(runFlaws(timedOut(1500))).toEqual([])
  })
})
