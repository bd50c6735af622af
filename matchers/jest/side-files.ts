import { mkdirSync } from 'node:fs'
import path from 'node:path'
import {
  type AssertionRecord,
  errorMessage,
  REPORT_RECORDS_ENV,
  USED_AUTHORITIES_EXTENSION,
  type UsedAuthorities,
  writeFileAtomicSync,
} from '../../src/front-end.js'
import { testState } from './globals.js'

/**
 * Jest has no channel from a test to a reporter: with `rea-capture/jest-reporter` configured, each assertion's record
 * is a side file in the folder the reporter named. Jest reloads this module for every test file in the same
 * worker, so names come from the process's monotonic clock, not a module counter: one worker's records sort
 * in the order they were written (a retried test's last attempt wins).
 */
export function writeRecord(record: AssertionRecord): void {
  writeSideFile('.json', JSON.stringify(record))
}

function writeSideFile(extension: string, text: string): void {
  const recordsDir = process.env[REPORT_RECORDS_ENV]
  if (recordsDir === undefined || recordsDir === '') {
    return
  }
  mkdirSync(recordsDir, { recursive: true })
  const name = `${process.pid}-${process.hrtime.bigint().toString().padStart(20, '0')}${extension}`
  // Renamed into place whole: a worker killed meanwhile leaves no half record for the reporter to reject.
  writeFileAtomicSync(path.join(recordsDir, name), text)
}

/**
 * When the test file has run, the authority files its assertions used go to the reporter as one more side file,
 * which also says that REA's matchers saw the whole file; the reporter finds obsolete authorities with it.
 */
export function writeUsedAuthorities(used: UsedAuthorities): void {
  const testPath = testState()?.testPath
  if (testPath === undefined) {
    return
  }
  try {
    writeSideFile(
      USED_AUTHORITIES_EXTENSION,
      JSON.stringify({ test_file: testPath, authorities: used.of(testPath) }),
    )
  } catch (error) {
    process.stderr.write(
      `rea: could not tell the reporter which authority files ${testPath} used: ${errorMessage(error)}\n`,
    )
  }
}
