import { afterAll, beforeAll, expect, test as vitestTest } from 'vitest'
import { defineMarkdownSuite, type RunnerMatcherState, updateModeOf } from '../../src/front-end.js'
import { annotateFailure } from './annotations.js'
import { recordForReporter } from './artifacts.js'
import { test } from './fixture.js'
import { recording, vitestProject, vitestRoot } from './worker.js'

/**
 * The tests of one Markdown file under Vitest, as the module `rea-capture/vitest-markdown` makes of it: one per
 * console block, run through the `captureProcess` fixture. Called by that generated module, not by hand.
 *
 * @example
 * // what reaMarkdown() turns docs/cli.md into
 * import { defineMarkdownTests } from 'rea-capture/vitest'
 * defineMarkdownTests('/project/docs/cli.md', '# The CLI\n…')
 */
export function defineMarkdownTests(file: string, source: string): void {
  defineMarkdownSuite(
    {
      updateCommand: 'vitest -u',
      root: vitestRoot,
      updateMode: () => updateModeOf(expect.getState().snapshotState),
      adapter: {
        project: vitestProject,
        recording,
        record: (state, record) => recordForReporter(state.task, record),
        failed: annotateFailure,
      },
      // Blocks share their file's folder and run in document order, whatever the project's concurrency.
      test: (name, timeoutMs, body) =>
        test(name, { timeout: timeoutMs, concurrent: false }, async ({ captureProcess, task }) => {
          const state = (): RunnerMatcherState => ({ ...expect.getState(), task })
          const result = task.result as { retryCount?: number; repeatCount?: number } | undefined
          await body({
            capture: (scenario) => captureProcess(scenario),
            state,
            attempt: { retry: result?.retryCount ?? 0, repeat: result?.repeatCount ?? 0 },
          })
        }),
      skip: (name) => vitestTest.skip(name, () => undefined),
      beforeAll: (body) => beforeAll(body),
      afterAll: (body) => afterAll(body),
    },
    file,
    source,
  )
}
