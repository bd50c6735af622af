/**
 * The authority files each test file's assertions read or wrote in this process: the obsolete-authority check
 * needs them, per test file, once the file has run (retries and repeats add to the same set).
 */
export class UsedAuthorities {
  readonly #byTestFile = new Map<string, Set<string>>()

  add(testPath: string, file: string): void {
    let files = this.#byTestFile.get(testPath)
    if (files === undefined) {
      files = new Set()
      this.#byTestFile.set(testPath, files)
    }
    files.add(file)
  }

  /** The files used by the test file's assertions, sorted; empty when none used a file. */
  of(testPath: string): string[] {
    return [...(this.#byTestFile.get(testPath) ?? [])].sort()
  }
}
