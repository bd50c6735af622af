import { existsSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  authorityText,
  expectEveryReporter,
  expectFixtureCounts,
  expectRunnerPassed,
  GREETING_ONLY,
} from '../helpers/coverage-report.js'
import { fixtureProjects } from '../helpers/fixture-project.js'
import { REPO_ROOT } from '../helpers/fixtures.js'
import { runRunnerCli, type RunnerCliResult } from '../helpers/run-runner-cli.js'

// The runner-coverage project run by Jest with `coverageProvider: 'v8'`, as its users run it: `jest`, and
// `jest --coverage`. Jest 30 is this checkout's; Jest 29 runs where REA_TEST_JEST29_MODULES names a node_modules
// folder holding it (.ci/run installs one), and is skipped with a printed reason otherwise.
const JEST29_MODULES = process.env['REA_TEST_JEST29_MODULES'] ?? ''
const JESTS = [
  { name: 'Jest 30', cli: path.join(REPO_ROOT, 'node_modules/jest/bin/jest.js') },
  { name: 'Jest 29', cli: path.join(JEST29_MODULES, 'jest/bin/jest.js') },
].map((jest) => ({ ...jest, missing: missingJest(jest.cli, jest.name) }))

function missingJest(cli: string, name: string): string | undefined {
  if (name === 'Jest 29' && JEST29_MODULES === '') {
    return 'REA_TEST_JEST29_MODULES is not set'
  }
  if (!existsSync(cli)) {
    return `${cli} does not exist`
  }
  const { version } = JSON.parse(readFileSync(path.join(cli, '../../package.json'), 'utf8')) as {
    version: string
  }
  return version.startsWith(name.slice('Jest '.length)) ? undefined : `${cli} is Jest ${version}`
}

for (const jest of JESTS) {
  if (jest.missing !== undefined) {
    console.warn(`skipping the coverage tests under ${jest.name}: ${jest.missing}`)
  }
}

const projectCopy = fixtureProjects('runner-coverage', { links: ['@swc'] })

/** `jest <args>`; with `--coverage`, the fixture's internals.jest.cjs checks what REA found in Jest. */
function runJest(cli: string, project: string, args: string[]): Promise<RunnerCliResult> {
  const pin = args.includes('--coverage') ? { FIXTURE_PIN_INTERNALS: '1' } : {}
  return runRunnerCli(cli, ['--rootDir', project, ...args], project, pin)
}

function expectPassed(result: RunnerCliResult): void {
  expectRunnerPassed(result)
  expect(result.stderr).toMatch(/Tests:\s+(\d+ skipped, )?\d+ passed/)
}

describe.each(JESTS)('captured programs in $name coverage (coverageProvider v8)', (jest) => {
  test.skipIf(jest.missing !== undefined)(
    'covers what only captures ran, merged with in-process coverage of Jest-transformed code, in every reporter; changes no verdict',
    { timeout: 240_000 },
    async () => {
      const project = projectCopy()
      expectPassed(await runJest(jest.cli, project, GREETING_ONLY))
      const recorded = authorityText(project)
      expect(recorded).not.toContain('"coverage": {')

      const covered = await runJest(jest.cli, project, ['--coverage'])
      expectPassed(covered)
      expect(covered.stderr).toMatch(/Snapshots:\s+1 passed/)
      expect(authorityText(project)).toBe(recorded)
      expectFixtureCounts(project)
      expectEveryReporter(project)

      rmSync(path.join(project, '__captures__'), { recursive: true })
      expectPassed(await runJest(jest.cli, project, ['--coverage']))
      const authority = authorityText(project)
      expect(authority).toContain('"coverage": {"variables":["NODE_V8_COVERAGE"],"v8_files_written":1}')
      expect(authority).not.toMatch(/rea-captures-|\.rea-capture-/)
      const plain = await runJest(jest.cli, project, GREETING_ONLY)
      expectPassed(plain)
      expect(plain.stderr).toMatch(/Snapshots:\s+1 passed/)
      expect(authorityText(project)).toBe(authority)
    },
  )

  test.skipIf(jest.missing !== undefined)('the same counts in band (-i)', { timeout: 120_000 }, async () => {
    const project = projectCopy()
    expectPassed(await runJest(jest.cli, project, ['--coverage', '-i']))
    expectFixtureCounts(project)
  })
})
