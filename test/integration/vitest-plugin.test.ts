import { execFile } from 'node:child_process'
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'
import { parseEvidenceText } from '../../src/index.js'
import { authorityPathFor } from '../../src/authority/authority-path.js'
import { fixtureProjects, matchWithoutTimes } from '../helpers/fixture-project.js'
import { REPO_ROOT } from '../helpers/fixtures.js'

const run = promisify(execFile)
const RUNNER = path.join(REPO_ROOT, 'test/helpers/run-vitest-project.mjs')
// The default authority of the first toMatchCapture() in test "greets the user", as the matcher names it.
const AUTHORITY = path.relative('/p', authorityPathFor('/p/greet.test.mjs', 'greets the user', 1))

interface ProjectRun {
  readonly tests: { name: string; state: string; errors: string[] }[]
  readonly snapshot: { added: number; updated: number; matched: number; unmatched: number }
}

/** A copy of the fixture project with `rea` (this repository's built package) installed. */
const projectCopy = fixtureProjects('vitest-basic')
/** The same project with `rea` linked to this repository, as a workspace links it: Vite transforms REA's files. */
const linkedProjectCopy = fixtureProjects('vitest-basic', { rea: 'linked' })

async function runProject(
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
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as ProjectRun)
}

const greeting = (result: ProjectRun) => result.tests.find((entry) => entry.name === 'greets the user')!

describe('rea/vitest in a real Vitest project', () => {
  test(
    'records the authority on the first run, then matches it 20 times out of 20',
    { timeout: 240_000 },
    async () => {
      const project = projectCopy()
      // A stall of the loaded machine once moved the root's exit by 756 ms (68 against 824 ms after the input).
      matchWithoutTimes(path.join(project, 'greet.test.mjs'))
      const [first] = await runProject(project)
      expect(greeting(first!)).toMatchObject({ state: 'passed' })
      expect(first!.snapshot).toMatchObject({ added: 1, matched: 0 })
      const authority = parseEvidenceText(readFileSync(path.join(project, AUTHORITY), 'utf8'))
      expect(authority.terminal.chunks.map((chunk) => chunk.data).join('')).toContain('Hello, Ada!')

      // One Vitest start, then 19 reruns of the file as watch mode reruns it: each in a fresh worker. Only the
      // test whose authority is matched runs: the file's other test and file cost as much again.
      const reruns = await runProject(project, {
        times: 20,
        only: { file: 'greet.test.mjs', name: '^greets the user$' },
      })
      expect(reruns).toHaveLength(20)
      expect(reruns.map((result) => [greeting(result).state, greeting(result).errors])).toEqual(
        Array.from({ length: 20 }, () => ['passed', []]),
      )
      // The other tests were left out, not run.
      expect(
        reruns.every((result) =>
          result.tests.every((entry) => entry === greeting(result) || entry.state === 'skipped'),
        ),
      ).toBe(true)
      expect(reruns.every((result) => result.snapshot.matched === 1 && result.snapshot.added === 0)).toBe(
        true,
      )
    },
  )

  test(
    'fails a changed program with the located divergence, and -u re-records it (REA linked as a workspace links it)',
    { timeout: 120_000 },
    async () => {
      const project = linkedProjectCopy()
      await runProject(project)
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
