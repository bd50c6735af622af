import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { authorityPathFor } from '../../src/authority/authority-path.js'
import { REPO_ROOT } from './fixtures.js'
import { jsonLines } from './json-lines.js'

const run = promisify(execFile)
const RUNNER = path.join(REPO_ROOT, 'test/helpers/run-vitest-project.mjs')
/** The default authority of the first toMatchCapture() in test "greets the user", as the matcher names it. */
export const AUTHORITY = path.relative('/p', authorityPathFor('/p/greet.test.mjs', 'greets the user', 1))

/** One run of the vitest-basic fixture project, as run-vitest-project.mjs prints it. */
export interface ProjectRun {
  readonly tests: { name: string; state: string; errors: string[] }[]
  readonly snapshot: { added: number; updated: number; matched: number; unmatched: number }
}

/** Runs the project through Vitest's API (run-vitest-project.mjs): `times` runs in one Vitest start. */
export async function runProject(
  project: string,
  options: {
    times?: number
    update?: boolean
    env?: Record<string, string>
    only?: { file: string; name: string }
  } = {},
): Promise<ProjectRun[]> {
  // The outer environment may be CI: each run says for itself whether it is.
  const { CI: _ci, ...env } = process.env
  const only = options.only === undefined ? [] : [options.only.file, options.only.name]
  const { stdout } = await run(
    process.execPath,
    [RUNNER, project, String(options.times ?? 1), String(options.update ?? false), ...only],
    { cwd: project, env: { ...env, ...options.env }, maxBuffer: 64 * 1024 * 1024 },
  )
  return jsonLines<ProjectRun>(stdout)
}

/** The result of the test "greets the user" in a run. */
export const greeting = (result: ProjectRun) =>
  result.tests.find((entry) => entry.name === 'greets the user')!
