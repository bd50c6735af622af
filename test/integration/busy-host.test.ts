import { spawn, type ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { captureProcess } from '../../src/index.js'
import { WORKER_MARKER_VARIABLE } from '../helpers/token-carriers.js'
import { killAndWait } from '../helpers/child-processes.js'

const RUNS = 200
let burners: ChildProcess[] = []

// Keep both cores busy for the whole file, as on a loaded CI machine. The burners outlive single tests on
// purpose, so they do not carry the worker marker the per-test leak check looks for; this file checks them.
beforeAll(() => {
  const environment = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== WORKER_MARKER_VARIABLE),
  )
  burners = [0, 1].map(() =>
    spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore', env: environment }),
  )
})
afterAll(async () => {
  await Promise.all(burners.map(killAndWait))
})

describe.each([
  ['true', { executable: 'true' }],
  ['a two-line script', { executable: 'sh', arguments: ['-c', 'echo one; echo two'] }],
])('%s on a busy host', (_name, scenario) => {
  test(`records the same settlement and cleanup outcome in ${RUNS} captures, none truncated or partial`, async () => {
    const outcomes = new Map<string, number>()
    for (let run = 0; run < RUNS; run++) {
      const evidence = await captureProcess(scenario)
      const outcome = JSON.stringify({
        exit: [evidence.exit.code, evidence.exit.reason],
        settlement: evidence.settlement.status,
        cleanup: evidence.cleanup.owned_processes,
        truncated: evidence.truncated,
        partial: evidence.truncation_details.process.partial,
        // The unknowns themselves, not their count: a failure then says which process and why.
        processUnknowns: evidence.residual_unknowns
          .filter((unknown) => unknown.dimension === 'process')
          .map((unknown) => `${unknown.reason}: ${unknown.detail}`),
      })
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
    }
    expect(Object.fromEntries(outcomes)).toEqual({
      [JSON.stringify({
        exit: [0, 'exited'],
        settlement: 'quiesced',
        cleanup: 'not_needed',
        truncated: false,
        partial: false,
        processUnknowns: [],
      })]: RUNS,
    })
  })
})
