import path from 'node:path'
import { isAuthorityOf, isDefaultAuthorityName } from './authority-path.js'

/**
 * Which default authority files no test uses any more, decided from what one run of the test runner proves and
 * nothing else: a file is obsolete only when the run shows that nothing could have read it. Like obsolete
 * snapshots, but a filtered, sharded or failing run reports less, never more.
 */

/**
 * Where the matchers leave, per test file, the authority files its assertions used: the key of the Vitest test
 * module's `meta`, and the extension of Jest's side files (`<pending folder>/<pid>-<clock>.used`).
 */
export const USED_AUTHORITIES_KEY = 'rea_used_authorities'
export const USED_AUTHORITIES_EXTENSION = '.used'

/** One test file as the run saw it. The same file may appear more than once (Vitest projects). */
export interface TestFileRun {
  /** Absolute path of the test file. */
  readonly testFile: string
  /** Every test the runner collected in the file, by the full name authority files are named after. */
  readonly tests: readonly {
    readonly name: string
    /**
     * The test ran to its end in this run: it passed (after any retries), was not skipped, filtered out or a
     * todo, and does not pass by failing (`test.fails`, `test.failing`), which stops at its first error.
     */
    readonly complete: boolean
  }[]
  /**
   * The authority files (absolute paths) that assertions in this file read or wrote during the run, or null when
   * REA's matchers did not report them (the file ended before they could): then nothing is proven.
   */
  readonly used: readonly string[] | null
  /** The runner could not run the file as a whole (it failed to load, or a hook or worker failed). */
  readonly broken: boolean
}

/** A `__captures__/<test file>/` folder found on disk, and what is in it. */
export interface CaptureFolder {
  /** Absolute path of the test file the folder is named after. */
  readonly testFile: string
  /** Whether that test file exists. */
  readonly testFileExists: boolean
  /** Absolute paths of the files in the folder. */
  readonly files: readonly string[]
}

export const OBSOLETE_REASONS = ['unused', 'test_file_deleted'] as const
export type ObsoleteReason = (typeof OBSOLETE_REASONS)[number]

export interface ObsoleteAuthority {
  /** Absolute path of the authority file. */
  readonly file: string
  /** Absolute path of the test file it belongs to (which may no longer exist). */
  readonly testFile: string
  /**
   * `unused`: its test file ran in full and no assertion used it (the test was renamed or removed, or asserts
   * less). `test_file_deleted`: its test file is gone.
   */
  readonly reason: ObsoleteReason
}

export interface ObsoleteInput {
  readonly runs: readonly TestFileRun[]
  /** The `__captures__` folders of the test files that ran, and, for a whole-project run, every other one. */
  readonly folders: readonly CaptureFolder[]
  /**
   * The run covered every test file of the project (no file filter, no shard, nothing changed-only): only then
   * does a folder whose test file is gone prove obsolete.
   */
  readonly wholeProject: boolean
}

/** Test file names: what a `__captures__/<name>/` folder of a deleted test must look like to be one. */
const SCRIPT_FILE = /\.[cm]?[jt]sx?$/u

/**
 * The obsolete authority files of a run, sorted by path. Only files named as `toMatchCapture()` names them are
 * candidates; an explicit-path authority is never obsolete. In a test file that ran, a file nobody used is
 * obsolete when every test of the file ran to its end, or when its name proves it belongs to a test that did;
 * a test that was skipped, filtered out or failed keeps every file it may use.
 */
export function findObsoleteAuthorities(input: ObsoleteInput): ObsoleteAuthority[] {
  const runs = mergeRuns(input.runs)
  const obsolete: ObsoleteAuthority[] = []
  for (const folder of input.folders) {
    const run = runs.get(folder.testFile)
    const candidates = folder.files.filter((file) => isDefaultAuthorityName(path.basename(file)))
    if (run !== undefined) {
      obsolete.push(...unusedIn(run, candidates))
    } else if (input.wholeProject && !folder.testFileExists && SCRIPT_FILE.test(folder.testFile)) {
      obsolete.push(
        ...candidates.map((file) => ({
          file,
          testFile: folder.testFile,
          reason: 'test_file_deleted' as const,
        })),
      )
    }
  }
  return obsolete.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
}

interface MergedRun {
  readonly testFile: string
  /** Each test name, and whether every test of that name ran to its end. */
  readonly names: Map<string, boolean>
  used: Set<string> | null
  broken: boolean
}

function mergeRuns(runs: readonly TestFileRun[]): Map<string, MergedRun> {
  const merged = new Map<string, MergedRun>()
  for (const run of runs) {
    let entry = merged.get(run.testFile)
    if (entry === undefined) {
      entry = { testFile: run.testFile, names: new Map(), used: new Set(), broken: false }
      merged.set(run.testFile, entry)
    }
    for (const test of run.tests) {
      entry.names.set(test.name, (entry.names.get(test.name) ?? true) && test.complete)
    }
    entry.broken ||= run.broken
    if (run.used === null) {
      entry.used = null
    } else if (entry.used !== null) {
      for (const file of run.used) {
        entry.used.add(file)
      }
    }
  }
  return merged
}

function unusedIn(run: MergedRun, candidates: readonly string[]): ObsoleteAuthority[] {
  const used = run.used
  if (run.broken || used === null || run.names.size === 0) {
    return []
  }
  const everyTestComplete = [...run.names.values()].every(Boolean)
  const completeNames = [...run.names].filter(([, complete]) => complete).map(([name]) => name)
  return candidates
    .filter(
      (file) =>
        !used.has(file) &&
        (everyTestComplete || completeNames.some((name) => isAuthorityOf(path.basename(file), name))),
    )
    .map((file) => ({ file, testFile: run.testFile, reason: 'unused' as const }))
}
