import { beforeAll, describe, expect, test } from 'vitest'
import type { Evidence } from '../../../src/index.js'
import { buildEvidence } from '../../helpers/build-evidence.js'
import type { AssertionRecord } from '../../../src/report/assertion-record.js'
import { countJestSnapshot } from '../../../matchers/snapshot-summary.js'
import {
  AssertionCounter,
  createMatchers,
  type RunnerMatcherState,
} from '../../../matchers/create-matchers.js'

const state = (task: object | undefined, name = 'greets', path = '/r/a.test.ts'): RunnerMatcherState => ({
  testPath: path,
  currentTestName: name,
  task,
})

describe('AssertionCounter', () => {
  test('numbers the assertions of a test, and restarts on a retry and on a repeat', () => {
    const counter = new AssertionCounter()
    const task: { result: { retryCount: number; repeatCount: number } } = {
      result: { retryCount: 0, repeatCount: 0 },
    }
    expect([counter.next(state(task)), counter.next(state(task))]).toEqual([1, 2])
    task.result.retryCount = 1
    expect([counter.next(state(task)), counter.next(state(task))]).toEqual([1, 2])
    task.result.repeatCount = 1
    expect(counter.next(state(task))).toBe(1)
  })

  test('two tests with the same name get their own numbers, as snapshots do', () => {
    const counter = new AssertionCounter()
    const first = { result: {} }
    const second = { result: {} }
    expect(counter.next(state(first))).toBe(1)
    expect(counter.next(state(second))).toBe(2)
    expect(counter.next(state({ result: {} }, 'other'))).toBe(1)
  })
})

let capture: Evidence
beforeAll(() => {
  capture = buildEvidence([])
})

describe('snapshot counting', () => {
  const matchers = createMatchers(
    {
      updateCommand: 'x -u',
      root: () => '/',
      project: () => '',
      recording: () => false,
      record: () => undefined,
      countSnapshot: countJestSnapshot,
    },
    new AssertionCounter(),
    new AssertionCounter(),
  )

  test('an authority argument that is neither a path nor Evidence fails with a clear message', () => {
    const result = matchers.toMatchCapture.call(state(undefined), {}, 42 as unknown as string)
    expect(result.pass).toBe(false)
    expect(result.message()).toContain('must be omitted, a non-empty path or an Evidence object; got number')
  })

  test('Jest’s plain-number counters never count a mismatch, which a passing retry could not undo', () => {
    const jestState = { added: 0, updated: 0, matched: 0, unmatched: 0, _updateSnapshot: 'none' }
    // CI mode and no authority file: an unmatched assertion, which Vitest would count.
    const result = matchers.toMatchCapture.call(
      { ...state(undefined, 'missing', '/tmp/rea-no-such-dir/a.test.ts'), snapshotState: jestState },
      capture,
    )
    expect(result.pass).toBe(false)
    expect(result.message()).toContain('does not exist')
    expect(jestState).toMatchObject({ added: 0, updated: 0, matched: 0, unmatched: 0 })
  })
})

describe('records for the reporter', () => {
  const recorded: AssertionRecord[] = []
  let recording = true
  const matchers = createMatchers(
    {
      updateCommand: 'x -u',
      root: () => '/',
      project: () => 'e2e',
      recording: () => recording,
      record: (_, record) => recorded.push(record),
      countSnapshot: () => undefined,
    },
    new AssertionCounter(),
    new AssertionCounter(),
  )

  test('nothing is built or sent when no reporter records', () => {
    recorded.length = 0
    recording = false
    matchers.toMatchCapture.call(state(undefined), capture, capture)
    expect(recorded).toEqual([])
    recording = true
  })

  test('each assertion is recorded with its project, attempt and outcome; a bad argument too', () => {
    recorded.length = 0
    const task = { result: { retryCount: 2, repeatCount: 1 } }
    matchers.toMatchCapture.call(state(task, 'records'), capture, capture)
    matchers.toMatchCapture.call(state(task, 'records'), capture, 42 as unknown as string)
    expect(recorded.map((record) => [record.entry, record.outcome, record.passed])).toEqual([
      [1, 'matched', true],
      [2, 'error', false],
    ])
    expect(recorded[0]).toMatchObject({ project: 'e2e', attempt: { retry: 2, repeat: 1 } })
    expect(recorded[0]!.reconstruction).not.toBeNull()
    expect(recorded[1]!.message).toContain('must be omitted, a non-empty path or an Evidence object')
  })
})
