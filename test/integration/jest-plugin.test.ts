import { execFile } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'
import { authorityPathFor } from '../../src/authority/authority-path.js'
import { fixtureProjects, matchWithoutTimes } from '../helpers/fixture-project.js'
import { REPO_ROOT } from '../helpers/fixtures.js'
import { jsonLines } from '../helpers/json-lines.js'

const run = promisify(execFile)
const JEST = path.join(REPO_ROOT, 'node_modules/jest/bin/jest.js')
// The default authority of the first toMatchCapture() in test "greets the user", as the matcher names it.
const AUTHORITY = path.relative('/p', authorityPathFor('/p/greet.test.ts', 'greets the user', 1))

interface JestResult {
  readonly snapshot: { added: number; updated: number; matched: number; unmatched: number }
  readonly testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[]
}

/** A copy of the fixture project with `rea-capture` (this repository's built package) installed. */
const projectCopy = fixtureProjects('jest-basic', { links: ['@swc'] })

/** The outer environment may be CI: each run says for itself whether it is. */
function withoutCi(): NodeJS.ProcessEnv {
  const { CI: _ci, ...outer } = process.env
  return outer
}

let runs = 0
async function runJest(
  project: string,
  flags: string[] = [],
  env: Record<string, string> = {},
): Promise<JestResult> {
  const output = path.join(project, `result-${runs++}.json`)
  await run(process.execPath, [JEST, '--rootDir', project, '--json', '--outputFile', output, ...flags], {
    cwd: project,
    env: { ...withoutCi(), ...env },
  }).catch(() => undefined) // a failing test run exits 1; the JSON says why
  return JSON.parse(readFileSync(output, 'utf8')) as JestResult
}

const RERUNNER = path.join(REPO_ROOT, 'test/helpers/run-jest-project.mjs')

/** `times` whole Jest runs in one process (run-jest-project.mjs), one result per run. */
async function rerunJest(project: string, times: number, flags: string[]): Promise<JestResult[]> {
  const { stdout } = await run(process.execPath, [RERUNNER, project, String(times), ...flags], {
    cwd: project,
    env: withoutCi(),
    maxBuffer: 64 * 1024 * 1024,
  })
  return jsonLines<JestResult>(stdout)
}

const greeting = (result: JestResult) =>
  result.testResults[0]!.assertionResults.find((entry) => entry.title === 'greets the user')!

describe('rea-capture/jest in a real Jest project (@swc/jest)', () => {
  test('records on the first run, then matches 20 times out of 20', { timeout: 240_000 }, async () => {
    const project = projectCopy()
    // Only the test whose authority is matched runs.
    matchWithoutTimes(path.join(project, 'greet.test.ts'))
    const only = ['--testNamePattern', '^greets the user$']
    const first = await runJest(project, only)
    expect(greeting(first).status).toBe('passed')
    // The file's other test was left out, not run.
    expect(
      first.testResults[0]!.assertionResults.filter((entry) => entry.title !== 'greets the user').map(
        (entry) => entry.status,
      ),
    ).toEqual(['pending'])
    expect(first.snapshot.added).toBe(1)
    expect(existsSync(path.join(project, AUTHORITY))).toBe(true)
    // Two processes at once, ten whole Jest runs each: the first starts Jest, the later ones rerun it as watch
    // mode does, each with a fresh module registry and test environment.
    const reruns = (await Promise.all([rerunJest(project, 10, only), rerunJest(project, 10, only)])).flat()
    const statuses = reruns.map((result) => {
      const { status, failureMessages } = greeting(result)
      return `${status} matched=${result.snapshot.matched}${failureMessages.length > 0 ? `\n${failureMessages.join('\n')}` : ''}`
    })
    expect(statuses).toEqual(Array.from({ length: 20 }, () => 'passed matched=1'))
  })

  test(
    'fails a changed program with the divergence; -u re-records; --ci never writes',
    { timeout: 120_000 },
    async () => {
      const project = projectCopy()
      const missing = await runJest(project, ['--ci'])
      expect(greeting(missing).status).toBe('failed')
      expect(greeting(missing).failureMessages.join('\n')).toContain('does not exist, and it was not written')
      expect(existsSync(path.join(project, AUTHORITY))).toBe(false)

      await runJest(project)
      const program = path.join(project, 'greet.mjs')
      writeFileSync(program, readFileSync(program, 'utf8').replace('Hello', 'Hallo'))
      const changed = await runJest(project)
      const message = greeting(changed).failureMessages.join('\n')
      expect(greeting(changed).status).toBe('failed')
      expect(message).toContain(`the capture differs from its authority ${AUTHORITY}`)
      expect(message).toContain('+Hallo, Ada!')
      expect(message).toContain('jest -u')
      // Jest's summary counts the mismatch as a failed snapshot, never as a passed one.
      expect(changed.snapshot).toMatchObject({ unmatched: 1, matched: 0 })
      const updated = await runJest(project, ['-u'])
      expect(greeting(updated).status).toBe('passed')
      expect(updated.snapshot.updated).toBe(1)
    },
  )
})
