import { relativePosix } from '../internal/relative-posix.js'
import { showName } from '../internal/escape-controls.js'
import { describeObsolete } from './messages.js'
import { checkObsoleteAuthorities } from './obsolete-check.js'
import type { TestFileRun } from './obsolete-authorities.js'
import type { UpdateMode } from './update-mode.js'

export interface FileObsoleteRequest {
  /** The test file that just ended, its tests as the runner saw them, and the authorities its assertions used. */
  readonly run: Omit<TestFileRun, 'broken'>
  readonly updateMode: UpdateMode
  readonly updateCommand: string
  readonly root: string
}

export interface FileObsoleteResult {
  /** What to tell the user, or null when nothing is obsolete. */
  readonly report: string | null
  /** For a CI run (no update expected) with obsolete files: the failure, naming each file and the command. */
  readonly failure: string | null
}

/**
 * The obsolete check REA's setup entry (`rea-capture/vitest`, `rea-capture/jest`) runs when a test file ends, without a reporter:
 * an authority in the file's `__captures__` folder that no test of it used, in a file whose tests ran (every test
 * to its end, or the ones its name belongs to), is obsolete: a local run reports it and passes, `-u` removes it,
 * a CI run fails on it. What only a whole run knows (folders of deleted test files) is the reporter's.
 */
export function checkObsoleteInFile(request: FileObsoleteRequest): FileObsoleteResult {
  const result = checkObsoleteAuthorities({
    runs: [{ ...request.run, broken: false }],
    wholeProject: false,
    updateMode: request.updateMode,
    updateCommand: request.updateCommand,
    root: request.root,
  })
  if (result.files.length === 0) {
    return { report: null, failure: null }
  }
  const testFile = showName(relativePosix(request.root, request.run.testFile))
  const count = result.files.length
  const files = result.files.map(
    (file) => `  · ${describeObsolete(file, request.root)}${file.removed ? ' (removed)' : ''}`,
  )
  const removed = result.files.every((file) => file.removed)
  const report = [
    `rea: ${testFile}: ${count} obsolete authority ${count === 1 ? 'file' : 'files'}: no test of this file used ${count === 1 ? 'it' : 'them'}${removed ? '; removed' : ''}.`,
    ...files,
    ...result.problems.map((problem) => `  ${problem}`),
    ...(removed || result.failure !== null
      ? []
      : [`Remove ${count === 1 ? 'it' : 'them'} with \`${request.updateCommand}\`.`]),
  ].join('\n')
  return { report: result.failure === null ? report : null, failure: result.failure }
}
