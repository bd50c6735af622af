import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { errorMessage } from '../internal/error-message.js'
import type { MarkdownIssue } from './markdown-issue.js'
import type { DocumentPlan } from './plan-document.js'

/**
 * The fresh temporary folder a Markdown file's commands run in: made when the file starts, holding the files its
 * front matter names (`files=`), then, before each block, the fences with `file=` written above it, in document
 * order. Removed when the file ends, so no case sees another file's leftovers and none touches the project.
 */
export class MarkdownWorkspace {
  readonly directory: string
  readonly #plan: DocumentPlan
  /** Fixture fences written so far (they are written in order, each once). */
  #written = 0

  private constructor(plan: DocumentPlan, directory: string) {
    this.#plan = plan
    this.directory = directory
  }

  /** Makes the folder and copies `files=`; a file that cannot be copied is an issue at the front matter's line. */
  static create(plan: DocumentPlan): {
    readonly workspace: MarkdownWorkspace
    readonly issues: readonly MarkdownIssue[]
  } {
    const directory = mkdtempSync(path.join(tmpdir(), 'rea-md-'))
    const workspace = new MarkdownWorkspace(plan, directory)
    const issues: MarkdownIssue[] = []
    for (const entry of plan.fileOptions.files ?? []) {
      const problem = copyInto(path.dirname(plan.file), entry, directory)
      if (problem !== null) {
        issues.push({ file: plan.file, line: 1, rule: 'fixture', message: `files=${entry}: ${problem}` })
      }
    }
    return { workspace, issues }
  }

  /** Writes the `file=` fences that come before block `blockIndex` and were not written yet. */
  prepareBlock(blockIndex: number): MarkdownIssue[] {
    const issues: MarkdownIssue[] = []
    const fixtures = this.#plan.fixtures
    while (
      this.#written < fixtures.length &&
      (fixtures[this.#written]?.beforeBlock ?? Infinity) <= blockIndex
    ) {
      const fixture = fixtures[this.#written++]
      if (fixture === undefined) {
        break
      }
      try {
        const target = path.join(this.directory, fixture.path)
        mkdirSync(path.dirname(target), { recursive: true })
        writeFileSync(target, fixture.content)
        // A script shown in the docs and then run: executable, as a checkout would keep it.
        if (fixture.content.startsWith('#!')) {
          chmodSync(target, 0o755)
        }
      } catch (error) {
        issues.push({
          file: this.#plan.file,
          line: fixture.line,
          rule: 'fixture',
          message: `could not write ${fixture.path}: ${errorMessage(error)}`,
        })
      }
    }
    return issues
  }

  /** Where a block's commands run: the temporary folder, or its `cwd=` relative to the Markdown file. */
  workingDirectory(cwd: string | undefined): string {
    return cwd === undefined ? this.directory : path.resolve(path.dirname(this.#plan.file), cwd)
  }

  dispose(): void {
    rmSync(this.directory, { recursive: true, force: true })
  }
}

/** `files=NAME` copies a file or folder by its name; `files=DIR/*` copies what the folder holds. */
function copyInto(base: string, entry: string, directory: string): string | null {
  const spread = entry.endsWith('/*')
  const source = path.resolve(base, spread ? entry.slice(0, -2) : entry)
  try {
    if (spread) {
      if (!statSync(source).isDirectory()) {
        return `${source} is not a folder`
      }
      for (const name of readdirSync(source)) {
        cpSync(path.join(source, name), path.join(directory, name), { recursive: true })
      }
    } else {
      cpSync(source, path.join(directory, path.basename(source)), { recursive: true })
    }
    return null
  } catch (error) {
    return `could not copy it into the temporary folder: ${errorMessage(error)}`
  }
}
