import { beforeAll, describe, expect, test } from 'vitest'
import { AssertionCounter } from '../../../src/runner/assertion-counter.js'
import { createMatchers } from '../../../src/runner/matcher-functions.js'
import { MATCHER_TIMING_DEFAULT } from '../../../src/authority/matcher-options.js'
import { updateProjectOptions } from '../../../src/authority/project-options.js'
import type { RunnerAdapter, RunnerMatcherState } from '../../../src/runner/runner-adapter.js'
import { UsedAuthorities } from '../../../src/runner/used-authorities.js'
import { computeIdentityDigest } from '../../../src/evidence/identity-digest.js'
import type { Evidence } from '../../../src/evidence/schema.js'
import type { AssertionRecord } from '../../../src/report/assertion-record.js'
import { buildEvidence } from '../../helpers/build-evidence.js'

const state = (task: object | undefined, name = 'greets', path = '/r/a.test.ts'): RunnerMatcherState => ({
  testPath: path,
  currentTestName: name,
  task,
})

/** A runner adapter that records nothing, with `overrides` for what a test looks at. */
const adapter = (overrides: Partial<RunnerAdapter> = {}): RunnerAdapter => ({
  updateCommand: 'x -u',
  root: () => '/',
  project: () => '',
  recording: () => false,
  record: () => undefined,
  countSnapshot: () => undefined,
  ...overrides,
})

let capture: Evidence
beforeAll(() => {
  capture = buildEvidence([])
})

describe('createMatchers', () => {
  const matchers = createMatchers(adapter(), new AssertionCounter(), new AssertionCounter())

  test('an authority argument that is neither a path nor Evidence fails with a clear message', () => {
    const result = matchers.toMatchCapture.call(state(undefined), {}, 42 as unknown as string)
    expect(result.pass).toBe(false)
    expect(result.message()).toContain('must be omitted, a non-empty path or an Evidence object; got number')
  })
})

describe('records for the reporter', () => {
  const recorded: AssertionRecord[] = []
  let recording = true
  const matchers = createMatchers(
    adapter({
      project: () => 'e2e',
      recording: () => recording,
      record: (_, record) => recorded.push(record),
    }),
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

describe('options', () => {
  const used = new UsedAuthorities()
  const matchers = createMatchers(adapter(), new AssertionCounter(), new AssertionCounter(), used)
  /** The capture as if its root had exited at `ms`, sealed again so that it imports. */
  const exitingAt = (ms: number): Evidence => {
    const copy = structuredClone(capture)
    copy.exit.at_ms = ms
    copy.identity_digest = computeIdentityDigest(copy)
    return copy
  }

  test('timing comes from the assertion, else the project, else the default, which tolerates a slower machine', () => {
    const three = exitingAt(1000)
    const nine = exitingAt(3000)
    expect(matchers.toMatchCapture.call(state(undefined), nine, three).pass).toBe(true)
    expect(matchers.toMatchCapture.call(state(undefined), nine, three, { timing: 'strict' }).pass).toBe(false)
    updateProjectOptions({ timing: 'strict' })
    try {
      expect(matchers.toMatchCapture.call(state(undefined), nine, three).pass).toBe(false)
      expect(matchers.toMatchCapture.call(state(undefined), nine, three, { timing: 'ignore' }).pass).toBe(
        true,
      )
    } finally {
      updateProjectOptions({ timing: MATCHER_TIMING_DEFAULT })
    }
  })

  test('the terminal level comes from the assertion, else the project, else the stream', () => {
    const recorded: AssertionRecord[] = []
    const recording = createMatchers(
      adapter({ recording: () => true, record: (_, record) => recorded.push(record) }),
      new AssertionCounter(),
      new AssertionCounter(),
    )
    const levels = () => recorded.map((record) => record.comparison?.terminal_level)
    recording.toMatchCapture.call(state(undefined), capture, capture)
    recording.toMatchCapture.call(state(undefined), capture, capture, { terminal: 'screens' })
    updateProjectOptions({ terminal: 'screens' })
    try {
      recording.toMatchCapture.call(state(undefined), capture, capture)
      recording.toMatchCapture.call(state(undefined), capture, capture, { terminal: 'stream' })
    } finally {
      updateProjectOptions({ terminal: 'stream' })
    }
    expect(levels()).toEqual(['stream', 'screens', 'screens', 'stream'])
  })

  test('an object without `format` is the options of the default authority', () => {
    const testPath = '/tmp/rea-no-such-dir/a.test.ts'
    const result = matchers.toMatchCapture.call(
      { ...state(undefined, 'options', testPath), snapshotState: { _updateSnapshot: 'none' } },
      capture,
      { timing: 'ignore' },
    )
    expect(result.message()).toContain('does not exist, and it was not written')
    // Looked for counts as used: the obsolete-authority check learns it from here.
    expect(used.of(testPath)).toEqual([expect.stringMatching(/__captures__\/a\.test\.ts\/options 1-/)])
  })

  test('invalid options fail the assertion, naming each', () => {
    const bad = matchers.toMatchCapture.call(state(undefined), capture, capture, {
      timing: { tolerance_ms: 5, ratio: 4 },
      timeing: 1,
      recordUnfinished: 'yes',
    })
    expect(bad.pass).toBe(false)
    expect(bad.message()).toContain('options.timing.ratio: must be a number from 0 to 1')
    expect(bad.message()).toContain(
      'options.timeing: is not an option (valid: timing, recordUnfinished, acceptUnknowns, terminal)',
    )
    expect(bad.message()).toContain('options.recordUnfinished: must be true or false: got string')
    const level = matchers.toMatchCapture.call(state(undefined), capture, capture, { terminal: 'pixels' })
    expect(level.message()).toContain('options.terminal: must be "stream" or "screens": got "pixels"')
    const trace = matchers.toSatisfyTrace.call(state(undefined), capture, {}, { timing: 'fast' })
    expect(trace.message()).toContain('toSatisfyTrace(spec, options): the options are not valid')
  })
})
