import { expect } from 'vitest'
import {
  obsoleteCheckAtFileEnd,
  REPORT_DIR_ENV,
  updateModeOf,
  USED_AUTHORITIES_KEY,
  type UsedAuthorities,
} from '../../src/front-end.js'
import { vitestRoot } from './worker.js'

interface RunnerTask {
  readonly type: string
  readonly name: string
  readonly mode?: string
  readonly fails?: boolean
  readonly result?: { readonly state?: string }
  readonly tasks?: readonly RunnerTask[]
}

function isTestFile(
  value: unknown,
): value is { filepath: string; meta: Record<string, unknown>; tasks: readonly RunnerTask[] } {
  const file = value as { filepath?: unknown; meta?: unknown; tasks?: unknown } | null | undefined
  return (
    typeof file?.filepath === 'string' &&
    typeof file.meta === 'object' &&
    file.meta !== null &&
    Array.isArray(file.tasks)
  )
}

/** Every test of the file by the full name authorities are named after (Vitest joins suites with ' > '). */
function testsOf(tasks: readonly RunnerTask[], prefix = ''): { name: string; complete: boolean }[] {
  return tasks.flatMap((task) => {
    const name = prefix === '' ? task.name : `${prefix} > ${task.name}`
    if (task.type === 'suite') {
      return testsOf(task.tasks ?? [], name)
    }
    // Ran to its end: passed, was neither skipped nor a todo, and does not pass by failing.
    return [{ name, complete: task.result?.state === 'pass' && task.fails !== true }]
  })
}

/**
 * The `afterAll` hook of a test file. The authority files it used travel in its module's meta to the reporter
 * (and in blob reports), which finds obsolete ones; the meta also says that REA's matchers saw the whole file.
 */
export function afterTestFile(used: UsedAuthorities) {
  // Vitest 4.1 passes (fixtures, suite) and insists that the first parameter be a destructuring pattern.
  // eslint-disable-next-line no-empty-pattern
  return ({}, suite: unknown) => {
    if (isTestFile(suite)) {
      suite.meta[USED_AUTHORITIES_KEY] = used.of(suite.filepath)
      // Without rea-capture/reporter, this finds the file's obsolete authorities; with it, it fails the file
      // where Vitest counts it (a CI run), and the reporter reports.
      const report = obsoleteCheckAtFileEnd(
        {
          run: { testFile: suite.filepath, tests: testsOf(suite.tasks), used: used.of(suite.filepath) },
          updateMode: updateModeOf(expect.getState().snapshotState),
          updateCommand: 'vitest -u',
          root: vitestRoot(),
        },
        (process.env[REPORT_DIR_ENV] ?? '') !== '',
      )
      if (report !== null) {
        process.stderr.write(`${report}\n`)
      }
    }
  }
}
