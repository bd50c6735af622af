import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'
import { authorityPathFor } from '../../src/authority/authority-path.js'
import { fixtureProjects } from '../helpers/fixture-project.js'
import { REPO_ROOT } from '../helpers/fixtures.js'

const run = promisify(execFile)
const VITEST_RUNNER = path.join(REPO_ROOT, 'test/helpers/run-vitest-project.mjs')
const JEST = path.join(REPO_ROOT, 'node_modules/jest/bin/jest.js')

const vitestProject = fixtureProjects('vitest-waits')
const jestProject = fixtureProjects('jest-waits', { links: ['@swc'] })

/** The runner's environment without the outer CI marker: these runs record authorities. */
function localEnvironment(): NodeJS.ProcessEnv {
  const { CI: _ci, ...env } = process.env
  return { ...env, NO_COLOR: '1' }
}

const NEVER_MET =
  /event 0 \(input\) waited for screen "Name\? " from launch and was skipped at [\d,]+ ms: wait_timed_out \[wait_timed_out\]/

describe('rea-capture/vitest: captures that did not run as their scenario expects', () => {
  test(
    'record no authority unless asked, and a wait open near the test timeout fails with what it waited for',
    { timeout: 120_000 },
    async () => {
      const project = vitestProject()
      const { stdout, stderr } = await run(process.execPath, [VITEST_RUNNER, project], {
        cwd: project,
        env: localEnvironment(),
      })
      const result = JSON.parse(stdout.split('\n').find((line) => line.startsWith('{'))!) as {
        tests: { name: string; state: string; errors: string[] }[]
        snapshot: { added: number; unmatched: number }
      }
      const byName = new Map(result.tests.map((entry) => [entry.name, entry]))
      const authority = (name: string) => authorityPathFor(path.join(project, 'waits.test.mjs'), name, 1)

      const neverMet = byName.get('a wait never met records no authority')!
      expect(neverMet.state).toBe('failed')
      const message = neverMet.errors.join('\n')
      expect(message).toContain(
        'was not written: this capture did not run as its scenario expects, so it cannot stand as the authority.',
      )
      expect(message).toMatch(NEVER_MET)
      expect(message).toContain('Last screen (80×24, blank rows at the end not shown):')
      expect(message).toContain('│Name: ')
      expect(message).toContain('{ recordUnfinished: true }')
      expect(existsSync(authority('a wait never met records no authority'))).toBe(false)

      expect(byName.get('recordUnfinished records it on purpose')).toMatchObject({ state: 'passed' })
      expect(existsSync(authority('recordUnfinished records it on purpose'))).toBe(true)
      expect(result.snapshot.added).toBe(1)

      const hung = byName.get('a wait still open near the test timeout is explained')!
      expect(hung.state).toBe('failed')
      const explained = hung.errors.join('\n')
      expect(explained).toMatch(
        /^REA ended this capture 600 ms before Vitest's 3,000 ms test timeout: event 0 \(input\) was still waiting for screen "Name\? ", since launch \([\d,]+ ms before REA ended the run\)\./,
      )
      expect(explained).toContain('│Name:│')
      expect(explained).toContain("The scenario's own timeout_ms is 30,000 ms.")
      expect(explained).not.toContain('timed out')
      expect(stderr).not.toContain('could not annotate')
    },
  )
})

describe('rea-capture/jest: captures that did not run as their scenario expects', () => {
  test(
    'record no authority, and a wait open near the test timeout fails with what it waited for',
    { timeout: 120_000 },
    async () => {
      const project = jestProject()
      const output = path.join(project, 'result.json')
      await run(process.execPath, [JEST, '--rootDir', project, '--json', '--outputFile', output], {
        cwd: project,
        env: localEnvironment(),
      }).catch(() => undefined) // failing tests exit 1; the JSON says why
      const result = JSON.parse(readFileSync(output, 'utf8')) as {
        snapshot: { matched: number; unmatched: number; failure: boolean }
        testResults: {
          name: string
          assertionResults: { title: string; status: string; failureMessages: string[] }[]
        }[]
      }
      const file = (name: string) => result.testResults.find((entry) => entry.name.endsWith(name))!
      const byName = new Map(file('waits.test.ts').assertionResults.map((entry) => [entry.title, entry]))

      // A retried test: its failed attempt's mismatch is taken back from the snapshot summary.
      expect(file('retry.test.ts').assertionResults[0]?.status).toBe('passed')
      expect(result.snapshot).toMatchObject({ matched: 1, unmatched: 1 })

      const neverMet = byName.get('a wait never met records no authority')!
      expect(neverMet.status).toBe('failed')
      expect(neverMet.failureMessages.join('\n')).toMatch(NEVER_MET)
      expect(existsSync(authorityPathFor(path.join(project, 'waits.test.ts'), neverMet.title, 1))).toBe(false)

      const hung = byName.get('a wait still open near the test timeout is explained')!
      expect(hung.status).toBe('failed')
      const explained = hung.failureMessages.join('\n')
      expect(explained).toContain(
        'REA ended this capture 600 ms before Jest\'s 3,000 ms test timeout: event 0 (input) was still waiting for screen "Name? ", since launch',
      )
      expect(explained).toContain('│Name:│')
      expect(explained).not.toContain('Exceeded timeout')
      // The stack points at the test's call, never into REA's own files.
      expect(explained).toContain('waits.test.ts:')
      expect(explained).not.toMatch(/runner-deadline|runner-timeout|dist\/jest/)
    },
  )
})
