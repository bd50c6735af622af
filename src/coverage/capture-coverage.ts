import { mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs'
import path from 'node:path'
import { ReaError } from '../errors.js'
import { makeFolder } from '../internal/make-folder.js'
import { NODE_V8_COVERAGE } from '../scenario/coverage-variables.js'

/**
 * Where a capture leaves the V8 coverage files of the Node.js programs it runs (`rea capture-process --coverage
 * <dir>`, the MCP tool's `coverage_directory`, or the folder a test runner's glue registered).
 */
export interface CoverageOptions {
  /** A folder, created if missing; a relative path resolves against the capture root. */
  readonly directory: string
}

/** Files Node writes, one per process: `coverage-<pid>-<time>-<n>.json`. */
const COVERAGE_FILE = /\.json$/

/**
 * The coverage folder of one capture. The program's `NODE_V8_COVERAGE` names a private folder inside the
 * requested one; when the capture is over (every process it owned has ended), its files are moved up. So a file
 * appears in the requested folder only whole and only once its writer is gone (a reader scanning it, such as the
 * runner glue, never sees a capture still running), captures sharing a folder never mix, and REA knows how many
 * files this capture wrote.
 */
export class CaptureCoverage {
  readonly #directory: string
  readonly #privateFolder: string
  #filesMoved: number | null | undefined

  private constructor(directory: string, privateFolder: string) {
    this.#directory = directory
    this.#privateFolder = privateFolder
  }

  /** Creates the folders before the launch; a folder REA cannot create is an invalid argument: nothing runs. */
  static prepare(options: CoverageOptions, root: string): CaptureCoverage {
    if (typeof options.directory !== 'string' || options.directory === '') {
      throw new ReaError('INVALID_ARGUMENTS', 'The coverage option names no folder; nothing was run:', {
        issues: [{ path: 'coverage.directory', rule: 'type', message: 'must be a non-empty path' }],
      })
    }
    const directory = path.resolve(root, options.directory)
    try {
      makeFolder(directory)
      return new CaptureCoverage(directory, mkdtempSync(path.join(directory, '.rea-capture-')))
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error)
      throw new ReaError('INVALID_ARGUMENTS', 'The coverage folder could not be prepared; nothing was run:', {
        issues: [
          {
            path: 'coverage.directory',
            rule: 'writable_directory',
            message: `must be a folder REA can create and write in: ${directory} gave ${code}`,
          },
        ],
      })
    }
  }

  /** What the launch adds to the program's environment: outside the scenario, like the run token. */
  get environment(): Readonly<Record<string, string>> {
    return { [NODE_V8_COVERAGE]: this.#privateFolder }
  }

  /**
   * Moves the files the capture's processes wrote into the requested folder and removes the private one; returns
   * how many, or null when the private folder could no longer be read (someone removed it during the capture).
   * Call once every owned process has ended: a later writer finds no folder, and Node then writes nothing.
   * Repeated calls return the first result.
   */
  finish(): number | null {
    if (this.#filesMoved === undefined) {
      this.#filesMoved = this.#moveFiles()
      rmSync(this.#privateFolder, { recursive: true, force: true })
    }
    return this.#filesMoved
  }

  #moveFiles(): number | null {
    let names: string[]
    try {
      names = readdirSync(this.#privateFolder)
    } catch {
      // Removed from outside (a coverage tool cleaning its folder mid-run): the count is unknown, recorded as null.
      return null
    }
    let moved = 0
    for (const name of names.filter((entry) => COVERAGE_FILE.test(entry))) {
      renameSync(path.join(this.#privateFolder, name), path.join(this.#directory, name))
      moved++
    }
    return moved
  }
}
