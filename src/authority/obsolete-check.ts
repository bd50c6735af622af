import path from 'node:path'
import { errorMessage } from '../internal/error-message.js'
import { isDefaultAuthorityName } from './authority-path.js'
import { readCaptureFolders, removeAuthorityFiles } from './capture-folders.js'
import { obsoleteAuthoritiesFailure, reporterNeededForObsolete } from './messages.js'
import { findObsoleteAuthorities, type ObsoleteAuthority, type TestFileRun } from './obsolete-authorities.js'
import { updateModeOf, type UpdateMode } from './update-mode.js'

export interface ObsoleteCheckRequest {
  readonly runs: readonly TestFileRun[]
  /** The run covered every test file of the project (see `ObsoleteInput.wholeProject`). */
  readonly wholeProject: boolean
  /** The run's snapshot update mode: `all` removes obsolete files, `none` (CI) fails on them. */
  readonly updateMode: UpdateMode
  /** How the user removes them, e.g. `vitest -u`; shown in the CI failure. */
  readonly updateCommand: string
  /** Paths in messages are shown relative to this folder. */
  readonly root: string
  /**
   * Authority files whose failure the runner has already counted and shown (a deleted test file's, found while
   * the run went on): still listed in `files`, but left out of `failure`, which is not said twice.
   */
  readonly counted?: ReadonlySet<string>
}

export interface ObsoleteFile extends ObsoleteAuthority {
  /** Removed by this run (`-u`). */
  readonly removed: boolean
}

export interface ObsoleteCheckResult {
  readonly files: readonly ObsoleteFile[]
  /** For a CI run (update mode `none`) that found obsolete files: why the run fails, naming each file. */
  readonly failure: string | null
  /** Files `-u` could not remove, each with the operating system's error code. */
  readonly problems: readonly string[]
}

/**
 * After a run: finds the obsolete authority files of the test files that ran (`findObsoleteAuthorities`),
 * removes them with `-u`, and in a CI run says why the run must fail. Local runs only report them.
 *
 * @example
 * const result = checkObsoleteAuthorities({ runs, wholeProject: true, updateMode: 'none', updateCommand: 'vitest -u', root })
 * if (result.failure !== null) console.error(result.failure)
 */
export function checkObsoleteAuthorities(request: ObsoleteCheckRequest): ObsoleteCheckResult {
  const folders = readCaptureFolders(request.runs.map((run) => run.testFile))
  const obsolete = findObsoleteAuthorities({
    runs: request.runs,
    folders,
    wholeProject: request.wholeProject,
  })
  if (obsolete.length === 0) {
    return { files: [], failure: null, problems: [] }
  }
  switch (request.updateMode) {
    case 'all': {
      const { removed, failed } = removeAuthorityFiles(obsolete.map((entry) => entry.file))
      const gone = new Set(removed)
      return {
        files: obsolete.map((entry) => ({ ...entry, removed: gone.has(entry.file) })),
        failure: null,
        problems: failed.map(({ file, code }) => `could not remove ${file} (${code})`),
      }
    }
    case 'none': {
      const uncounted = obsolete.filter((entry) => request.counted?.has(entry.file) !== true)
      return {
        files: obsolete.map((entry) => ({ ...entry, removed: false })),
        failure:
          uncounted.length === 0
            ? null
            : obsoleteAuthoritiesFailure(uncounted, request.root, request.updateCommand),
        problems: [],
      }
    }
    case 'new':
      return { files: obsolete.map((entry) => ({ ...entry, removed: false })), failure: null, problems: [] }
  }
}

/**
 * The default authorities in `__captures__/<name>/` folders next to the given test files whose test file `<name>`
 * is gone. What a run of the whole project proves before any test ends; the caller decides that it is one.
 */
export function deletedTestFileAuthorities(testFiles: readonly string[]): ObsoleteAuthority[] {
  // No run is given: a folder whose test file exists is not judged here, whether that file ran or not.
  return findObsoleteAuthorities({ runs: [], folders: readCaptureFolders(testFiles), wholeProject: true })
}

/**
 * For `-u` without REA's reporter, which alone can tell obsolete files: a one-line hint when the test file's
 * `__captures__` folder holds default authorities its assertions did not use in this run; null otherwise.
 */
export function obsoleteHintWithoutReporter(
  testPath: string,
  used: readonly string[],
  reporter: string,
  root: string,
): string | null {
  const mine = readCaptureFolders([testPath]).find((folder) => folder.testFile === testPath)
  const usedFiles = new Set(used)
  const unused = (mine?.files ?? []).filter(
    (file) => isDefaultAuthorityName(path.basename(file)) && !usedFiles.has(file),
  )
  return unused.length === 0 ? null : reporterNeededForObsolete(testPath, unused.length, reporter, root)
}

/**
 * Obsolete authorities are found by REA's reporter only. When a test file ends in a `-u` run without it, and its
 * `__captures__` folder holds authorities the file did not use, one line says so instead of leaving the user to
 * wonder why `-u` kept them.
 */
export function hintWithoutReporter(
  testPath: string | undefined,
  used: readonly string[],
  snapshotState: unknown,
  reporter: string,
  root: string,
): void {
  if (testPath === undefined || updateModeOf(snapshotState) !== 'all') {
    return
  }
  try {
    const hint = obsoleteHintWithoutReporter(testPath, used, reporter, root)
    if (hint !== null) {
      process.stderr.write(`${hint}\n`)
    }
  } catch (error) {
    // A hint must never fail a test file.
    process.stderr.write(`rea: ${errorMessage(error)}\n`)
  }
}
