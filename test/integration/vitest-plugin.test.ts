import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { fixtureProjects } from '../helpers/fixture-project.js'
import { runRunnerCli } from '../helpers/run-runner-cli.js'
import { AUTHORITY, greeting, runProject, type ProjectRun } from '../helpers/vitest-project-run.js'
import { VITEST_CLI } from '../helpers/vitest-under-test.js'

// vitest-plugin-reruns.test.ts holds the 20 matches in a row, a file of its own so that it runs beside this one.

/** A copy of the fixture project with `rea-capture` (this repository's built package) installed. */
const projectCopy = fixtureProjects('vitest-basic')
/** The same project with `rea-capture` linked to this repository, as a workspace links it: Vite transforms REA's files. */
const linkedProjectCopy = fixtureProjects('vitest-basic', { rea: 'linked' })

describe('rea-capture/vitest in a real Vitest project', () => {
  test(
    'fails a changed program with the located divergence, and -u re-records it (REA linked as a workspace links it)',
    { timeout: 120_000 },
    async () => {
      const project = linkedProjectCopy()
      // The first run records the authority; if it could not (an unknown it refused to write), the changed run
      // would record instead of compare, and pass.
      const [recorded] = await runProject(project)
      expect(greeting(recorded!).errors.join('\n')).toBe('')
      expect(existsSync(path.join(project, AUTHORITY))).toBe(true)
      const program = path.join(project, 'greet.mjs')
      writeFileSync(program, readFileSync(program, 'utf8').replace('Hello', 'Hallo'))
      const [changed] = await runProject(project)
      const failure = greeting(changed!)
      expect(failure.state).toBe('failed')
      const message = failure.errors.join('\n')
      expect(message).toContain(`the capture differs from its authority ${AUTHORITY}`)
      expect(message).toMatch(
        /First divergence the normalized terminal output differs at terminal byte \d+ \(line 2, column 2/,
      )
      expect(message).toContain('-Hello, Ada!')
      expect(message).toContain('+Hallo, Ada!')
      expect(message).toContain('vitest -u')
      expect(changed!.snapshot.unmatched).toBe(1)

      const [updated] = await runProject(project, { update: true })
      expect(greeting(updated!).state).toBe('passed')
      expect(updated!.snapshot.updated).toBe(1)
      const [after] = await runProject(project)
      expect(greeting(after!).state).toBe('passed')
    },
  )

  test(
    'writes nothing in CI and fails a missing authority with how to record it',
    { timeout: 60_000 },
    async () => {
      const project = projectCopy()
      const [result] = await runProject(project, { env: { CI: 'true' } })
      const failure = greeting(result!)
      expect(failure.state).toBe('failed')
      expect(failure.errors.join('\n')).toContain('does not exist, and it was not written')
      expect(existsSync(path.join(project, AUTHORITY))).toBe(false)
    },
  )

  test(
    'an authority recorded in one folder passes from a copy of the project elsewhere',
    { timeout: 60_000 },
    async () => {
      const original = projectCopy()
      await runProject(original)
      const clone = projectCopy()
      cpSync(path.join(original, '__captures__'), path.join(clone, '__captures__'), { recursive: true })
      const [result] = await runProject(clone)
      expect(greeting(result!).state).toBe('passed')
      expect(result!.snapshot.matched).toBe(1)
    },
  )

  test(
    'two tests with the same name keep separate authorities, in every run',
    { timeout: 60_000 },
    async () => {
      const project = projectCopy()
      const env = { FIXTURE_SAME_NAME: '1' }
      const [first] = await runProject(project, { env })
      const [second] = await runProject(project, { env })
      const sameName = (result: ProjectRun) => result.tests.filter((entry) => entry.name === 'says a word')
      expect(sameName(first!).map((entry) => entry.state)).toEqual(['passed', 'passed'])
      expect(sameName(second!).map((entry) => [entry.state, entry.errors])).toEqual([
        ['passed', []],
        ['passed', []],
      ])
      expect(second!.snapshot.matched).toBeGreaterThanOrEqual(2)
    },
  )

  test(
    'listed twice in a project’s setup files, it registers once and finds no authority obsolete',
    { timeout: 60_000 },
    async () => {
      const project = projectCopy()
      const twice = { FIXTURE_SETUP_TWICE: '1' }
      const recorded = await runRunnerCli(VITEST_CLI, ['run'], project, twice)
      expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0)
      expect(existsSync(path.join(project, AUTHORITY))).toBe(true)
      const ci = await runRunnerCli(VITEST_CLI, ['run'], project, { ...twice, CI: 'true' })
      expect(ci.stdout + ci.stderr).not.toContain('obsolete')
      expect(ci.code, ci.stdout + ci.stderr).toBe(0)
    },
  )

  test('works in the threads pool too', { timeout: 60_000 }, async () => {
    const project = projectCopy()
    const [first, second] = [
      ...(await runProject(project, { env: { FIXTURE_POOL: 'threads' } })),
      ...(await runProject(project, { env: { FIXTURE_POOL: 'threads' } })),
    ]
    expect(greeting(first!).state).toBe('passed')
    expect(greeting(second!)).toMatchObject({ state: 'passed', errors: [] })
    expect(second!.snapshot.matched).toBe(1)
  })

  test(
    'the fixture cancels a capture when its test times out and leaves no process',
    { timeout: 60_000 },
    async () => {
      const project = projectCopy()
      const [result] = await runProject(project, { env: { FIXTURE_TIMEOUT: '1' } })
      const timedOut = result!.tests.find((entry) => entry.name === 'is cancelled when it times out')!
      expect(timedOut.state).toBe('failed')
      // REA ends the capture before Vitest's own timeout and says so; on a machine too loaded for REA to act in
      // time, Vitest's timeout comes first. Either way the capture is cancelled and nothing is left running.
      expect(timedOut.errors.join('\n')).toMatch(
        /REA ended this capture [\d,]+ ms before Vitest's|timed out/i,
      )
      // The per-test leak check fails this test if the `sleep 30` it started (it carries our marker) survived.
    },
  )
})
