import { beforeAll, describe, expect, test } from 'vitest'
import { JestSnapshotCounts } from '../../../../matchers/jest/snapshot-summary.js'
import { AssertionCounter } from '../../../../src/runner/assertion-counter.js'
import { createMatchers } from '../../../../src/runner/matcher-functions.js'
import type { Evidence } from '../../../../src/evidence/schema.js'
import { buildEvidence } from '../../../helpers/build-evidence.js'

let capture: Evidence
beforeAll(() => {
  capture = buildEvidence([])
})

describe('JestSnapshotCounts', () => {
  const counts = new JestSnapshotCounts()
  const matchers = createMatchers(
    {
      updateCommand: 'x -u',
      root: () => '/',
      project: () => '',
      recording: () => false,
      record: () => undefined,
      countSnapshot: (matcherState, count) => counts.count(matcherState, count),
    },
    new AssertionCounter(),
    new AssertionCounter(),
  )

  test('Jest counts a failing authority assertion as unmatched, and takes it back when the test is retried', () => {
    const jestState = { added: 0, updated: 0, matched: 0, unmatched: 0, _updateSnapshot: 'none' }
    const retried = {}
    const other = {}
    // CI mode and no authority file: an unmatched assertion, never a passed one.
    const assert = () =>
      matchers.toMatchCapture.call(
        {
          testPath: '/tmp/rea-no-such-dir/a.test.ts',
          currentTestName: 'missing',
          task: undefined,
          snapshotState: jestState,
        },
        capture,
      )
    counts.testStarted(retried)
    const result = assert()
    expect(result.pass).toBe(false)
    expect(result.message()).toContain('does not exist')
    expect(jestState).toMatchObject({ added: 0, updated: 0, matched: 0, unmatched: 1 })
    // jest-circus runs the file's other tests before it retries a failed one.
    counts.testStarted(other)
    assert()
    expect(jestState.unmatched).toBe(2)
    counts.retryAttempt(retried)
    expect(jestState.unmatched).toBe(1)
  })
})
