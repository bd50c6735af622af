import type { JestSnapshotCounts } from './snapshot-summary.js'

interface CircusEntry {
  readonly type: string
  readonly name: string
  readonly status?: string | null
  readonly errors?: readonly unknown[]
  readonly failing?: boolean
  readonly children?: readonly CircusEntry[]
}

/**
 * The tests of the running file from jest-circus's state (which it keeps on the test's global under a symbol),
 * by the full name authorities are named after (Jest joins describe blocks with a space); null when unreadable.
 */
export function circusTests(): { name: string; complete: boolean }[] | null {
  const symbol = Object.getOwnPropertySymbols(globalThis).find(
    (candidate) => candidate.description === 'JEST_STATE_SYMBOL',
  )
  const state = symbol === undefined ? undefined : (globalThis as Record<symbol, unknown>)[symbol]
  const root = (state as { rootDescribeBlock?: CircusEntry } | undefined)?.rootDescribeBlock
  if (root?.children === undefined) {
    return null
  }
  const walk = (entries: readonly CircusEntry[], prefix: string): { name: string; complete: boolean }[] =>
    entries.flatMap((entry) => {
      const name = prefix === '' ? entry.name : `${prefix} ${entry.name}`
      return entry.type === 'describeBlock'
        ? walk(entry.children ?? [], name)
        : [
            {
              name,
              complete:
                entry.status === 'done' && (entry.errors?.length ?? 0) === 0 && entry.failing !== true,
            },
          ]
    })
  return walk(root.children, '')
}

/** A test function as jest-circus starts it: when, and Jest's timeout for it. */
export interface TestFunction {
  readonly startMs: number
  readonly timeoutMs: number | undefined
}

let testFunction: TestFunction | undefined

/** The test function running now; undefined between tests and under a runner other than jest-circus. */
export function runningTestFunction(): TestFunction | undefined {
  return testFunction
}

/**
 * jest-circus keeps its event handlers in a registered global array; a handler added here learns when each test
 * function starts (Jest's timeout starts with it) and which timeout applies (the test's own, else the
 * configured one), and when a test is retried (what its failed attempt counted in the snapshot summary is taken
 * back). Under another runner (jest-jasmine2) there is no such array: no deadline, and no retries to undo.
 */
export function watchTestFunctions(snapshotCounts: JestSnapshotCounts): void {
  const handlers = (globalThis as Record<symbol, unknown>)[Symbol.for('EVENT_HANDLERS')]
  if (!Array.isArray(handlers)) {
    return
  }
  handlers.push((event: { name?: string; test?: { timeout?: number } }, state: { testTimeout?: number }) => {
    if (event.name === 'test_retry') {
      snapshotCounts.retryAttempt(event.test)
    } else if (event.name === 'test_fn_start') {
      snapshotCounts.testStarted(event.test)
      testFunction = { startMs: performance.now(), timeoutMs: event.test?.timeout || state.testTimeout }
    } else if (event.name === 'test_done') {
      testFunction = undefined
    }
  })
}
