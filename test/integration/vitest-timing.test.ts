// The project's timing policy through the real Vitest CLI; vitest-obsolete.test.ts covers obsolete authority
// files in the same fixture project. Two files, so that a test worker can run each beside the other.
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { authorityPathFor } from '../../src/authority/authority-path.js'
import { fixtureProjects } from '../helpers/fixture-project.js'
import { REPO_ROOT } from '../helpers/fixtures.js'
import { recordedProject } from '../helpers/obsolete-project.js'
import { runRunnerCli } from '../helpers/run-runner-cli.js'

const VITEST = path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs')
const projectCopy = fixtureProjects('vitest-obsolete')

/** Runs the real Vitest CLI in the project; `env` holds the fixture's switches and CI. */
function vitest(project: string, args: string[], env: Record<string, string> = {}) {
  return runRunnerCli(VITEST, ['run', ...args], project, env)
}

/** The default authority of a test's first assertion in greet.test.mjs, relative to the project. */
const authorityOf = (testName: string) =>
  path.relative('/p', authorityPathFor('/p/greet.test.mjs', testName, 1))

const recorded = () => recordedProject(projectCopy, vitest, authorityOf('says hi'))

describe('rea/vitest timing policies through the real Vitest CLI', () => {
  test('a program three times slower passes by default and fails under strict; ignore still fails a changed output', async () => {
    const project = await recorded()
    // sleep 0.2 recorded; 0.6 s now, what a loaded runner does to the short program.
    const slow = await vitest(project, [], { CI: 'true', FIXTURE_DELAY: '0.6' })
    expect(slow.code, slow.stdout + slow.stderr).toBe(0)

    const strict = await vitest(project, [], { CI: 'true', FIXTURE_DELAY: '0.6', FIXTURE_TIMING: 'strict' })
    expect(strict.code).toBe(1)
    expect(strict.stdout + strict.stderr).toMatch(/the root exited at a different time at exit\.at_ms/)
    expect(strict.stdout + strict.stderr).toContain('timing          strict')

    const changed = await vitest(project, [], {
      CI: 'true',
      FIXTURE_DELAY: '0.6',
      FIXTURE_TIMING: 'ignore',
      FIXTURE_WORD: 'bye',
    })
    expect(changed.code).toBe(1)
    expect(changed.stdout + changed.stderr).toContain('+bye')

    const bad = await vitest(project, [], { FIXTURE_TIMING: 'fast' })
    expect(bad.code).toBe(1)
    expect(bad.stdout + bad.stderr).toContain('configureRea.timing: must be "tolerant", "strict", "ignore"')
  })
})
