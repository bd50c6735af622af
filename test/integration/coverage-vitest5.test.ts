import { rmSync } from 'node:fs'
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
import { VITEST_MAJOR, VITEST_MODULES_ENV } from '../helpers/vitest-under-test.js'

// The runner-coverage project under Vitest 5, with its own tracking of child processes (autoAttachSubprocess: REA
// only lets NODE_V8_COVERAGE through) and without it (REA collects per capture, as under Vitest 4). Runs in CI's
// runner matrix (.ci/node24-suites: Node 24, REA_TEST_VITEST_MODULES naming a project with Vitest 5 and
// @vitest/coverage-v8 5); skipped with a printed reason elsewhere.
const [nodeMajor = 0, nodeMinor = 0] = process.versions.node.split('.').map(Number)

function whyNotVitest5(): string | undefined {
  if (VITEST_MAJOR < 5) {
    return `the Vitest under test is Vitest ${VITEST_MAJOR} (set ${VITEST_MODULES_ENV} to a node_modules with Vitest 5)`
  }
  if (nodeMajor < 22 || (nodeMajor === 22 && nodeMinor < 12)) {
    return `Vitest 5 needs Node.js 22.12 or later; this is ${process.versions.node}`
  }
  return undefined
}
const skipped = whyNotVitest5()
if (skipped !== undefined) {
  console.warn(`skipping the Vitest 5 coverage tests: ${skipped}`)
}

const projectCopy = fixtureProjects('runner-coverage')

describe.skipIf(skipped !== undefined)('captured programs in Vitest 5’s v8 coverage', () => {
  test(
    'with autoAttachSubprocess, captures inherit Vitest’s NODE_V8_COVERAGE and the report is right',
    { timeout: 240_000 },
    async () => {
      const project = projectCopy()
      const autoAttach = { FIXTURE_AUTO_ATTACH: '1' }
      expectRunnerPassed(await runFixtureVitest(project, ['--coverage'], autoAttach))
      expectFixtureCounts(project)
      expectEveryReporter(project)
      // Recorded with Vitest's own folder: the Evidence names the variable, counts no files, holds no folder.
      const authority = authorityText(project)
      expect(authority).toContain('"coverage": {"variables":["NODE_V8_COVERAGE"],"v8_files_written":null}')
      expect(authority).not.toMatch(/[/\\]\.tmp[/\\]/)
      expectRunnerPassed(await runFixtureVitest(project, GREETING_ONLY))
      expect(authorityText(project)).toBe(authority)
    },
  )

  test('without it, REA collects per capture as under Vitest 4', { timeout: 240_000 }, async () => {
    const project = projectCopy()
    expectRunnerPassed(await runFixtureVitest(project, GREETING_ONLY))
    const recorded = authorityText(project)
    expectRunnerPassed(await runFixtureVitest(project, ['--coverage']))
    expect(authorityText(project)).toBe(recorded)
    expectFixtureCounts(project)
    expectEveryReporter(project)
    rmSync(path.join(project, '__captures__'), { recursive: true })
    expectRunnerPassed(await runFixtureVitest(project, ['--coverage']))
    expect(authorityText(project)).toContain(
      '"coverage": {"variables":["NODE_V8_COVERAGE"],"v8_files_written":1}',
    )
  })
})
