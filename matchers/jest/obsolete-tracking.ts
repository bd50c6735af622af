import {
  obsoleteCheckAtFileEnd,
  hintWithoutReporter,
  REPORT_RECORDS_ENV,
  updateModeOf,
  type UsedAuthorities,
} from '../../src/front-end.js'
import { circusTests } from './circus.js'
import { testState } from './globals.js'
import { jestRoot } from './root.js'
import { writeUsedAuthorities } from './side-files.js'

/**
 * When a test file has run: with rea-capture/jest-reporter, the authority files it used go to the reporter, which finds
 * obsolete ones; without, this file's obsolete authorities are found here.
 */
export function afterTestFile(used: UsedAuthorities): void {
  const withReporter = (process.env[REPORT_RECORDS_ENV] ?? '') !== ''
  if (withReporter) {
    writeUsedAuthorities(used)
  }
  const state = testState()
  const tests = circusTests()
  if (state?.testPath === undefined || tests === null) {
    // Not jest-circus (or a version whose state REA cannot read): only the hint for -u is possible.
    const testPath = state?.testPath
    const files = testPath === undefined ? [] : used.of(testPath)
    if (!withReporter) {
      hintWithoutReporter(testPath, files, state?.snapshotState, 'rea-capture/jest-reporter', jestRoot())
    }
    return
  }
  // With the reporter this only fails the file where Jest counts it (a CI run); the reporter reports.
  const report = obsoleteCheckAtFileEnd(
    {
      run: { testFile: state.testPath, tests, used: used.of(state.testPath) },
      updateMode: updateModeOf(state.snapshotState),
      updateCommand: 'jest -u',
      root: jestRoot(),
    },
    withReporter,
  )
  if (report !== null) {
    process.stderr.write(`${report}\n`)
  }
}
