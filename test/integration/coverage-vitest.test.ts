import { readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { expectEveryReporter, expectFixtureCounts } from '../helpers/coverage-report.js'
import { fixtureProjects } from '../helpers/fixture-project.js'
import { REPO_ROOT } from '../helpers/fixtures.js'
import { runRunnerCli, type RunnerCliResult } from '../helpers/run-runner-cli.js'

// The runner-coverage project run by Vitest 4 as its users run it: `vitest run`, and `vitest run --coverage` with
// the v8 provider. Vitest 5 (autoAttachSubprocess on and off): coverage-vitest5.test.ts.
const VITEST = path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs')
const projectCopy = fixtureProjects('runner-coverage')

/** `vitest run <args>`; with `--coverage`, the fixture's internals.vitest.mjs checks what REA found in Vitest. */
function vitest(project: string, args: string[], env: Record<string, string> = {}): Promise<RunnerCliResult> {
  const pin = args.includes('--coverage') ? { FIXTURE_PIN_INTERNALS: '1' } : {}
  return runRunnerCli(VITEST, ['run', ...args], project, { ...pin, ...env })
}

function expectPassed(result: RunnerCliResult): void {
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0)
  // Nothing REA had to say: no hook missing, no script left out.
  expect(result.stderr).not.toContain('rea-capture:')
}

/** Runs without coverage need only the test that matches an authority. */
const GREETING_ONLY = ['--testNamePattern', 'greets through a capture']

/** The one authority file the fixture records ("greets through a capture"). */
function authorityText(project: string): string {
  const folder = path.join(project, '__captures__')
  const files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) =>
    name.endsWith('.json'),
  )
  expect(files).toHaveLength(1)
  return readFileSync(path.join(folder, files[0] as string), 'utf8')
}

describe('captured programs in Vitest’s v8 coverage', () => {
  test(
    'covers what only captures ran, merged with in-process coverage, in every reporter; changes no verdict',
    { timeout: 240_000 },
    async () => {
      const project = projectCopy()
      // Recorded without coverage.
      expectPassed(await vitest(project, GREETING_ONLY))
      const recorded = authorityText(project)
      expect(recorded).not.toContain('"coverage": {')
      expect(readdirSync(project)).not.toContain('coverage')

      // Matched with coverage on: the authority holds; the report counts the captured runs.
      const covered = await vitest(project, ['--coverage'])
      expectPassed(covered)
      // Matched, not re-recorded: a mismatch would fail the test and leave a pending capture beside it.
      expect(authorityText(project)).toBe(recorded)
      expectFixtureCounts(project)
      expectEveryReporter(project)
      // Vitest removes its .tmp folder, REA's capture folders in it with it.
      expect(readdirSync(path.join(project, 'coverage'))).not.toContain('.tmp')

      // Recorded with coverage on: the authority says coverage was collected, never where; it holds without.
      rmSync(path.join(project, '__captures__'), { recursive: true })
      expectPassed(await vitest(project, ['--coverage']))
      const authority = authorityText(project)
      expect(authority).toContain('"coverage": {"variables":["NODE_V8_COVERAGE"],"v8_files_written":1}')
      expect(authority).not.toMatch(/rea-captures-|\.rea-capture-|[/\\]\.tmp[/\\]/)
      expectPassed(await vitest(project, GREETING_ONLY))
      expect(authorityText(project)).toBe(authority)
    },
  )

  test('the same counts from the threads pool', { timeout: 120_000 }, async () => {
    const project = projectCopy()
    expectPassed(await vitest(project, ['--coverage'], { FIXTURE_POOL: 'threads' }))
    expectFixtureCounts(project)
  })
})
