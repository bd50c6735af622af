import type { RunnerMatcherState } from './runner-adapter.js'

/**
 * Numbers `toMatchCapture()` calls like snapshot keys: per test name within a file, so two tests with the same
 * name get `1` and `2` as Vitest's snapshots do, and a retried or repeated test starts again from its own
 * first number instead of writing new files.
 */
export class AssertionCounter {
  readonly #usedByName = new Map<string, number>()
  readonly #byTask = new WeakMap<object, { attempt: string; base: number; count: number }>()

  next(state: RunnerMatcherState): number {
    const key = `${state.testPath ?? ''}\0${state.currentTestName ?? ''}`
    const task = state.task
    if (task === undefined) {
      // Jest has no task object: numbering restarts for every test (see resetNames).
      const count = (this.#usedByName.get(key) ?? 0) + 1
      this.#usedByName.set(key, count)
      return count
    }
    const attempt = `${task.result?.retryCount ?? 0}:${task.result?.repeatCount ?? 0}`
    let entry = this.#byTask.get(task)
    if (entry === undefined) {
      entry = { attempt, base: this.#usedByName.get(key) ?? 0, count: 0 }
    } else if (entry.attempt !== attempt) {
      entry = { attempt, base: entry.base, count: 0 }
    }
    entry.count++
    this.#byTask.set(task, entry)
    this.#usedByName.set(key, Math.max(this.#usedByName.get(key) ?? 0, entry.base + entry.count))
    return entry.base + entry.count
  }

  /** Jest: called before each test, which has no task object to tell a retry from the next test. */
  resetNames(): void {
    this.#usedByName.clear()
  }
}
