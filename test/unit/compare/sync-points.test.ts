import { describe, expect, test } from 'vitest'
import { compareFromSync } from '../../../src/compare/sync-points.js'
import type { Evidence } from '../../../src/evidence/schema.js'
import { buildEvidence } from '../../helpers/build-evidence.js'

/** A capture whose event 0 waited for the program; `sentAtMs` is when it went in, `exitAtMs` the exit. */
function answered(sentAtMs: number, waited = true): Evidence {
  const evidence = buildEvidence([
    { chunk: 'Name? ' },
    { interaction: { event_index: 0 } },
    { chunk: 'Hello!\r\n' },
    { exit: { code: 0, signal: 0 } },
  ])
  evidence.commitments.comparison_contract.value.events = [
    waited
      ? { type: 'input', sensitive: false, data: 'Ada\r', after: { output: 'Name? ' } }
      : { type: 'input', sensitive: false, data: 'Ada\r', at_ms: 10 },
  ]
  const [interaction] = evidence.interactions
  if (interaction !== undefined) {
    interaction.at_ms = sentAtMs
  }
  return evidence
}

describe('compareFromSync', () => {
  const at = (evidence: Evidence, atMs: number) => ({ sequence: evidence.exit.sequence, at_ms: atMs })

  test('counts an exit from the answered prompt under every policy but strict', () => {
    const fast = answered(46)
    const slow = answered(602)
    expect(compareFromSync(fast, slow, 'tolerant', at(fast, 86), at(slow, 642))).toEqual({
      authority: 40,
      reconstruction: 40,
      from: 0,
    })
    expect(compareFromSync(fast, slow, 'strict', at(fast, 86), at(slow, 642))).toEqual({
      authority: 86,
      reconstruction: 642,
      from: 'launch',
    })
  })

  test('counts from launch when the event did not wait, or when the sides waited for different events', () => {
    const fast = answered(46, false)
    const slow = answered(602, false)
    expect(compareFromSync(fast, slow, 'tolerant', at(fast, 86), at(slow, 642)).from).toBe('launch')
    const skipped = answered(602)
    ;(skipped.interactions[0] as { outcome: string }).outcome = 'skipped'
    expect(compareFromSync(answered(46), skipped, 'tolerant', at(fast, 86), at(skipped, 642)).from).toBe(
      'launch',
    )
  })
})
