import {
  defineMarkdownSuite,
  REPORT_RECORDS_ENV,
  type RunnerMatcherState,
  updateModeOf,
} from '../../src/front-end.js'
import { captureProcess } from './capture.js'
import { globals } from './globals.js'
import { jestRoot } from './root.js'
import { writeRecord } from './side-files.js'

interface JestSuiteGlobals {
  readonly test: ((name: string, body: () => Promise<void>, timeoutMs?: number) => void) & {
    readonly skip: (name: string, body: () => void) => void
  }
  readonly beforeAll: (body: () => void) => void
  readonly afterAll: (body: () => void) => void
}

/**
 * The tests of one Markdown file under Jest, as the transform `rea-capture/jest-markdown` makes of it: one per
 * console block, run through `captureProcess` from `rea-capture/jest`. Called by the transformed module, not by hand.
 *
 * @example
 * // what the transform turns docs/cli.md into
 * require('rea-capture/jest').defineMarkdownTests('/project/docs/cli.md', '# The CLI\n…')
 */
export function defineMarkdownTests(file: string, source: string): void {
  const jest = globalThis as unknown as JestSuiteGlobals
  const state = (): RunnerMatcherState => globals.expect.getState() as RunnerMatcherState
  defineMarkdownSuite(
    {
      updateCommand: 'jest -u',
      root: jestRoot,
      updateMode: () => updateModeOf(state().snapshotState),
      adapter: {
        project: () => '',
        recording: () => (process.env[REPORT_RECORDS_ENV] ?? '') !== '',
        record: (_, record) => writeRecord(record),
      },
      test: (name, timeoutMs, body) =>
        jest.test(
          name,
          () =>
            body({
              capture: (scenario) => captureProcess(scenario),
              state,
              attempt: { retry: 0, repeat: 0 },
            }),
          timeoutMs,
        ),
      skip: (name) => jest.test.skip(name, () => undefined),
      beforeAll: (body) => jest.beforeAll(body),
      afterAll: (body) => jest.afterAll(body),
    },
    file,
    source,
  )
}
