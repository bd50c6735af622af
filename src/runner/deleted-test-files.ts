import { deletedTestFileAuthorities } from '../authority/obsolete-check.js'
import { obsoleteAuthoritiesFailure } from '../authority/messages.js'
import type { ObsoleteAuthority } from '../authority/obsolete-authorities.js'
import type { UpdateMode } from '../authority/update-mode.js'
import { obsoleteAuthoritiesError } from './obsolete-failure.js'

/**
 * The authorities of deleted (or renamed) test files, found while a CI run is still going, so that each runner
 * can count them among its own failures: by the end of the run its summary is written, and a reporter alone could
 * then only set the exit code under a summary that says everything passed.
 */

export interface DeletedTestFilesRequest {
  /** Test files of this run (absolute paths): the `__captures__` folders next to them are looked in. */
  readonly testFiles: readonly string[]
  /** The run covers every test file of the project, unfiltered: only then is a missing test file deleted. */
  readonly wholeProject: boolean
  readonly updateMode: UpdateMode
  /** How the user removes them, e.g. `vitest -u`. */
  readonly updateCommand: string
  /** Paths in messages are shown relative to this folder. */
  readonly root: string
}

/** One deleted test file whose folder still holds default authorities, as the runner's failure. */
export interface DeletedTestFileFailure {
  /** Absolute path of the test file that is gone. */
  readonly testFile: string
  /** Absolute paths of its authority files. */
  readonly files: readonly string[]
  /** Names each file and the command that removes them; its stack is the message alone (no frame into REA). */
  readonly error: Error
}

/**
 * One failure per deleted test file, for a CI run (update mode `none`) of the whole project; none otherwise: a
 * local run only reports them at the end, `-u` removes them at the end, and a partial run proves nothing.
 *
 * @example
 * for (const { error } of deletedTestFileFailures({ testFiles, wholeProject, updateMode: 'none', updateCommand: 'vitest -u', root })) count(error)
 */
export function deletedTestFileFailures(request: DeletedTestFilesRequest): DeletedTestFileFailure[] {
  if (!request.wholeProject || request.updateMode !== 'none') {
    return []
  }
  const byTestFile = new Map<string, ObsoleteAuthority[]>()
  for (const entry of deletedTestFileAuthorities(request.testFiles)) {
    byTestFile.set(entry.testFile, [...(byTestFile.get(entry.testFile) ?? []), entry])
  }
  return [...byTestFile].map(([testFile, authorities]) => ({
    testFile,
    files: authorities.map((entry) => entry.file),
    error: obsoleteAuthoritiesError(
      obsoleteAuthoritiesFailure(authorities, request.root, request.updateCommand),
    ),
  }))
}
