import { AssertionCounter, createMatchers, REPORT_RECORDS_ENV, UsedAuthorities } from '../src/front-end.js'
import { cancelPendingCaptures } from './jest/capture.js'
import { collectJestCaptureCoverage } from './jest/coverage.js'
import { watchTestFunctions } from './jest/circus.js'
import { globals } from './jest/globals.js'
import { afterTestFile } from './jest/obsolete-tracking.js'
import { jestRoot } from './jest/root.js'
import { writeRecord } from './jest/side-files.js'
import { JestSnapshotCounts } from './jest/snapshot-summary.js'

/**
 * `rea-capture/jest`: list it in `setupFilesAfterEnv` to register `toMatchCapture` and `toSatisfyTrace`; import
 * `captureProcess` from it for captures that are cancelled when their test ends.
 */

// With Jest's v8 coverage on, what captured programs run shows in its report (docs/coverage.md).
collectJestCaptureCoverage()

const counter = new AssertionCounter()
const entries = new AssertionCounter()
const used = new UsedAuthorities()
const snapshotCounts = new JestSnapshotCounts()
globals.expect.extend(
  createMatchers(
    {
      updateCommand: 'jest -u',
      root: jestRoot,
      project: () => '',
      recording: () => (process.env[REPORT_RECORDS_ENV] ?? '') !== '',
      record: (_, record) => writeRecord(record),
      countSnapshot: (state, count) => snapshotCounts.count(state, count),
    },
    counter,
    entries,
    used,
  ),
)

globals.beforeEach(() => {
  counter.resetNames()
  entries.resetNames()
})
// Captures still running when their test ends (it failed or timed out first) are cancelled and awaited.
// Jest runs no afterEach for test.concurrent, so afterAll catches what those left at the end of the file.
globals.afterEach(cancelPendingCaptures)
globals.afterAll(async () => {
  await cancelPendingCaptures()
  afterTestFile(used)
})
watchTestFunctions(snapshotCounts)

export { configureRea } from './configure-rea.js'
export { captureProcess } from './jest/capture.js'
export { defineMarkdownTests } from './jest/markdown.js'
export { jestRoot } from './jest/root.js'
// The matchers' types on Jest's `expect`: augmentations only, nothing to run.
export type {} from './jest/matcher-types.js'
