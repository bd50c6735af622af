import { describe, expect, test } from 'vitest'
import { AssertionCounter } from '../../../src/runner/assertion-counter.js'
import type { RunnerMatcherState } from '../../../src/runner/runner-adapter.js'

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

  test('numbers a Jest test, which has no task, from 1 again after resetNames', () => {
    const counter = new AssertionCounter()
    expect([counter.next(state(undefined)), counter.next(state(undefined))]).toEqual([1, 2])
    counter.resetNames()
    expect(counter.next(state(undefined))).toBe(1)
  })
})
