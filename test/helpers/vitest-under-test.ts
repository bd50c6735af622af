import { readFileSync } from 'node:fs'
import path from 'node:path'
import { REPO_ROOT } from './fixtures.js'

/**
 * Names a `node_modules` folder whose Vitest REA's runner tests drive in their fixture projects instead of this
 * checkout's devDependency (Vitest 4). CI's runner matrix (`.ci/runner-matrix`) points it at a fresh project with
 * Vitest 5 installed, to run the plugin, reporter, annotation and obsolete-file suites against that major; REA's
 * own tests still run on this checkout's Vitest.
 */
export const VITEST_MODULES_ENV = 'REA_TEST_VITEST_MODULES'

const CHECKOUT_MODULES = path.join(REPO_ROOT, 'node_modules')

/** The `node_modules` folder the fixture projects' Vitest comes from. */
export const VITEST_MODULES = path.resolve(process.env[VITEST_MODULES_ENV] || CHECKOUT_MODULES)

/** Whether the fixture projects run another Vitest than the one running REA's tests. */
export const OTHER_VITEST = VITEST_MODULES !== CHECKOUT_MODULES

/**
 * The `node_modules` entries taken from `VITEST_MODULES` when a fixture project's `rea-capture` resolves its
 * dependencies: Vitest, the Vite it runs on, and its own packages (`@vitest/coverage-v8`, say).
 */
export const RUNNER_ENTRIES: readonly string[] = ['vitest', 'vite', '@vitest']

/** The Vitest CLI, `node <VITEST_CLI> run …`. */
export const VITEST_CLI = path.join(VITEST_MODULES, 'vitest/vitest.mjs')

/** The major version of that Vitest. */
export const VITEST_MAJOR = Number(
  (
    JSON.parse(readFileSync(path.join(VITEST_MODULES, 'vitest/package.json'), 'utf8')) as {
      version: string
    }
  ).version.split('.')[0],
)

/**
 * Where that Vitest writes by default, relative to the project's root: attachment copies (`attachmentsDir`) and
 * blob reports, which `--merge-reports` reads when given no folder. Vitest 5 moved both under `.vitest/`.
 */
export const VITEST_DEFAULT_FOLDERS: { readonly attachments: string; readonly blobs: string } =
  VITEST_MAJOR >= 5
    ? { attachments: '.vitest/attachments', blobs: '.vitest/blob' }
    : { attachments: '.vitest-attachments', blobs: '.vitest-reports' }
