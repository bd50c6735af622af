import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll } from 'vitest'
import { REPO_ROOT } from './fixtures.js'
import { OTHER_VITEST, RUNNER_ENTRIES, VITEST_MODULES } from './vitest-under-test.js'

/**
 * How a fixture project gets `rea-capture`:
 * - `installed`, as `npm install rea-capture` puts it: a folder of its own under a `node_modules` path, holding this
 *   checkout's built package (package.json and dist/; its dependencies and native binary are reached through
 *   links). Vitest and Jest then load it as an external package, as in a user's project.
 * - `linked`, as a workspace links it: `node_modules/rea-capture` is a link to this checkout. The runners see REA's files
 *   outside any `node_modules` and transform them as the project's own source (Vite inlines them; Jest transforms
 *   them), which costs each run about a third more CPU time.
 *
 * When `REA_TEST_VITEST_MODULES` names another Vitest (vitest-under-test.ts), the package's `vitest` is that one:
 * the installed copy reaches it through its own `node_modules`, and a linked project gets the same copy in a folder
 * outside any `node_modules` (a link to this checkout would resolve the checkout's Vitest).
 */
export type ReaLayout = 'installed' | 'linked'

export interface FixtureProjectOptions {
  /** Entries of this checkout's `node_modules` the project also needs (a Jest transformer, say). */
  readonly links?: readonly string[]
  readonly rea?: ReaLayout
}

/**
 * Copies a user project from test/fixtures/projects into a temporary folder where `rea-capture` is installed (see
 * `ReaLayout`) along with any of this checkout's `node_modules` entries in `links`; given `from`, a copy of that
 * earlier copy instead. Call at module level: the copies, and the installed package they share, are removed after
 * the file's tests.
 */
export function fixtureProjects(
  name: string,
  options: FixtureProjectOptions = {},
): (from?: string) => string {
  const copies: string[] = []
  afterAll(() => copies.forEach((copy) => rmSync(copy, { recursive: true, force: true })))
  let installed: string | undefined
  const reaFolder = (): string => {
    if (options.rea === 'linked' && !OTHER_VITEST) {
      return REPO_ROOT
    }
    if (installed === undefined) {
      const prefix = mkdtempSync(path.join(tmpdir(), 'rea-installed-'))
      copies.push(prefix)
      installed = packageCopy(
        path.join(prefix, options.rea === 'linked' ? 'workspace/rea-capture' : 'node_modules/rea-capture'),
      )
    }
    return installed
  }
  return (from?: string) => {
    const project = mkdtempSync(path.join(tmpdir(), `rea-${name}-`))
    copies.push(project)
    if (from !== undefined) {
      // A copy of an earlier copy, as it is now (its links kept as they are).
      cpSync(from, project, { recursive: true, verbatimSymlinks: true })
      return project
    }
    cpSync(path.join(REPO_ROOT, 'test/fixtures/projects', name), project, { recursive: true })
    mkdirSync(path.join(project, 'node_modules'))
    symlinkSync(reaFolder(), path.join(project, 'node_modules/rea-capture'))
    for (const link of options.links ?? []) {
      symlinkSync(path.join(REPO_ROOT, 'node_modules', link), path.join(project, 'node_modules', link))
    }
    return project
  }
}

/**
 * This checkout's built package copied into `folder` (`<prefix>/node_modules/rea-capture` for an installed copy):
 * the files `npm pack` would ship that the runners load (package.json, dist/) are copied, so their real paths lie
 * where a user's would; the native binary and the dependencies are this checkout's, through links.
 */
function packageCopy(folder: string): string {
  mkdirSync(folder, { recursive: true })
  cpSync(path.join(REPO_ROOT, 'package.json'), path.join(folder, 'package.json'))
  cpSync(path.join(REPO_ROOT, 'dist'), path.join(folder, 'dist'), { recursive: true })
  symlinkSync(path.join(REPO_ROOT, 'native'), path.join(folder, 'native'))
  const dependencies = path.join(REPO_ROOT, 'node_modules')
  if (!OTHER_VITEST) {
    symlinkSync(dependencies, path.join(folder, 'node_modules'))
    return folder
  }
  // Entry by entry, the runner's from the other Vitest's node_modules: `import 'vitest'` in dist/ resolves there.
  mkdirSync(path.join(folder, 'node_modules'))
  const link = (from: string, entry: string) =>
    symlinkSync(path.join(from, entry), path.join(folder, 'node_modules', entry))
  for (const entry of readdirSync(dependencies)) {
    if (!entry.startsWith('.') && !RUNNER_ENTRIES.includes(entry)) {
      link(dependencies, entry)
    }
  }
  for (const entry of readdirSync(VITEST_MODULES)) {
    if (RUNNER_ENTRIES.includes(entry)) {
      link(VITEST_MODULES, entry)
    }
  }
  return folder
}

/**
 * Makes the first `toMatchCapture()` of a copied project's test file compare every dimension but time, for tests
 * whose subject is that a capture matches run after run: times are the timing tests' subject, and a stall of the
 * loaded machine moves an exit past the tolerant policy.
 */
export function matchWithoutTimes(testFile: string): void {
  const matched = 'expect(await captureProcess(scenario)).toMatchCapture()'
  const text = readFileSync(testFile, 'utf8')
  if (!text.includes(matched)) {
    throw new Error(`${testFile} has no \`${matched}\` to leave times out of`)
  }
  writeFileSync(
    testFile,
    text.replace(matched, "expect(await captureProcess(scenario)).toMatchCapture({ timing: 'ignore' })"),
  )
}
