import { readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  authorityText,
  expectEveryReporter,
  expectFixtureCounts,
  expectRunnerPassed,
  GREETING_ONLY,
  runFixtureVitest,
} from '../helpers/coverage-report.js'
import { fixtureProjects } from '../helpers/fixture-project.js'

// The runner-coverage project run by Vitest as its users run it: `vitest run`, and `vitest run --coverage` with
// the v8 provider. The Vitest is this checkout's (4) unless REA_TEST_VITEST_MODULES names another
// (vitest-under-test.ts); Vitest 5 with and without autoAttachSubprocess: coverage-vitest5.test.ts.
const projectCopy = fixtureProjects('runner-coverage')

describe('captured programs in Vitest’s v8 coverage', () => {
  test(
    'covers what only captures ran, merged with in-process coverage, in every reporter; changes no verdict',
    { timeout: 240_000 },
    async () => {
      const project = projectCopy()
      // Recorded without coverage.
      expectRunnerPassed(await runFixtureVitest(project, GREETING_ONLY))
      const recorded = authorityText(project)
      expect(recorded).not.toContain('"coverage": {')
      expect(readdirSync(project)).not.toContain('coverage')

      // Matched with coverage on: the authority holds; the report counts the captured runs.
      const covered = await runFixtureVitest(project, ['--coverage'])
      expectRunnerPassed(covered)
      // Matched, not re-recorded: a mismatch would fail the test and leave a pending capture beside it.
      expect(authorityText(project)).toBe(recorded)
      expectFixtureCounts(project)
      expectEveryReporter(project)
      // Vitest removes its .tmp folder, REA's capture folders in it with it.
      expect(readdirSync(path.join(project, 'coverage'))).not.toContain('.tmp')

      // Recorded with coverage on: the authority says coverage was collected, never where; it holds without.
      rmSync(path.join(project, '__captures__'), { recursive: true })
      expectRunnerPassed(await runFixtureVitest(project, ['--coverage']))
      const authority = authorityText(project)
      expect(authority).toContain('"coverage": {"variables":["NODE_V8_COVERAGE"],"v8_files_written":1}')
      expect(authority).not.toMatch(/rea-captures-|\.rea-capture-|[/\\]\.tmp[/\\]/)
      expectRunnerPassed(await runFixtureVitest(project, GREETING_ONLY))
      expect(authorityText(project)).toBe(authority)
    },
  )

  test('the same counts from the threads pool', { timeout: 120_000 }, async () => {
    const project = projectCopy()
    expectRunnerPassed(await runFixtureVitest(project, ['--coverage'], { FIXTURE_POOL: 'threads' }))
    expectFixtureCounts(project)
  })
})
