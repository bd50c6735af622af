import path from 'node:path'
import { authorityPathFor } from '../../src/authority/authority-path.js'
import { fixtureProjects } from './fixture-project.js'
import { recordedProject } from './obsolete-project.js'
import { runRunnerCli, type RunnerCliResult } from './run-runner-cli.js'
import { VITEST_CLI } from './vitest-under-test.js'

/** Runs the real Vitest CLI in the project; `env` holds the fixture's switches and CI. */
export function vitest(
  project: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<RunnerCliResult> {
  return runRunnerCli(VITEST_CLI, ['run', ...args], project, env)
}

/** The default authority of a test's first assertion in greet.test.mjs, relative to the project. */
export const authorityOf = (testName: string): string =>
  path.relative('/p', authorityPathFor('/p/greet.test.mjs', testName, 1))

/**
 * Copies of the vitest-obsolete fixture project with its authorities recorded, for vitest-timing.test.ts and
 * vitest-obsolete.test.ts. Call at module level: the recording happens once per test file.
 */
export function recordedVitestProjects(): () => Promise<string> {
  const projectCopy = fixtureProjects('vitest-obsolete')
  return () => recordedProject(projectCopy, vitest, authorityOf('says hi'))
}
