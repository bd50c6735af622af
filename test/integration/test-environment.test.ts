import { cpSync, readdirSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { fixtureProjects } from '../helpers/fixture-project.js'
import { PROGRAMS, REPO_ROOT } from '../helpers/fixtures.js'
import { runCli } from '../helpers/run-cli.js'
import { runRunnerCli } from '../helpers/run-runner-cli.js'

/**
 * Recorded here, checked in CI: authorities recorded with a developer's terminal environment hold when checked
 * with a CI runner's, from another clone, because the plugin's captures run in the test environment.
 */

const VITEST = path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs')
const JEST = path.join(REPO_ROOT, 'node_modules/jest/bin/jest.js')

/** A laptop with iTerm2 and a German locale, not in CI. */
const LAPTOP = {
  COLORTERM: 'truecolor',
  TERM_PROGRAM: 'iTerm.app',
  LANG: 'de_DE.UTF-8',
  LC_ALL: 'de_DE.UTF-8',
  TZ: 'Europe/Berlin',
  NO_COLOR: null,
  FIXTURE_PROGRAMS: PROGRAMS,
}
/** A GitHub Actions runner. */
const RUNNER = {
  CI: 'true',
  GITHUB_ACTIONS: 'true',
  NO_COLOR: '1',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  TZ: 'UTC',
  FIXTURE_PROGRAMS: PROGRAMS,
}

// The programs load chalk, Ink and @inquirer/prompts from this checkout: they run from test/fixtures/programs.
const vitestProject = fixtureProjects('vitest-environment')
const jestProject = fixtureProjects('jest-environment', { links: ['@swc'] })

const output = (result: { stdout: string; stderr: string }) => result.stdout + result.stderr
const authorities = (project: string) =>
  readdirSync(path.join(project, '__captures__'), { recursive: true }).filter((name) =>
    String(name).endsWith('.capture.json'),
  )

/**
 * The recording machine's values a committed authority must not hold: the checkout, home, temporary directory,
 * and the user and host name where they are not too short to tell from ordinary words (REA skips those) and
 * not REA's own vocabulary (`root` is also an attribution).
 */
function machineValues(checkout: string): string[] {
  const user = os.userInfo().username
  const host = os.hostname()
  return [
    checkout,
    os.homedir(),
    os.tmpdir(),
    ...(user.length >= 3 && user !== 'root' ? [user] : []),
    ...(host.length >= 3 ? [host] : []),
  ]
}

describe('the test environment', () => {
  test('an authority recorded on a laptop holds on a CI runner from another clone (Vitest)', async () => {
    const laptop = vitestProject()
    const recorded = await runRunnerCli(VITEST, ['run'], laptop, LAPTOP)
    expect(recorded.code, output(recorded)).toBe(0)
    expect(authorities(laptop)).toHaveLength(5)

    const runner = vitestProject()
    cpSync(path.join(laptop, '__captures__'), path.join(runner, '__captures__'), { recursive: true })
    const checked = await runRunnerCli(VITEST, ['run'], runner, RUNNER)
    expect(checked.code, output(checked)).toBe(0)
    expect(output(checked)).toMatch(/Tests\s+5 passed/)

    // The environment REA set is in the authority, for a reviewer to see; the laptop's values are not.
    const authority = readFileSync(path.join(laptop, '__captures__', String(authorities(laptop)[0])), 'utf8')
    expect(authority).toContain('"TZ":"UTC"')
    expect(authority).not.toContain('Europe/Berlin')
    expect(authority).not.toContain('iTerm')

    // Nothing of the recording machine is in any file under __captures__, JSON-escaped forms included.
    const files = authorities(laptop).map((name) =>
      readFileSync(path.join(laptop, '__captures__', String(name)), 'utf8'),
    )
    for (const value of machineValues(laptop)) {
      for (const spelling of [value, JSON.stringify(value).slice(1, -1)]) {
        expect(files.filter((text) => text.includes(spelling)).length, spelling).toBe(0)
      }
    }
  })

  test('the same in Jest', async () => {
    const laptop = jestProject()
    const recorded = await runRunnerCli(JEST, ['--rootDir', laptop, '--ci=false'], laptop, LAPTOP)
    expect(recorded.code, output(recorded)).toBe(0)
    expect(authorities(laptop)).toHaveLength(4)

    const runner = jestProject()
    cpSync(path.join(laptop, '__captures__'), path.join(runner, '__captures__'), { recursive: true })
    const checked = await runRunnerCli(JEST, ['--rootDir', runner, '--ci'], runner, RUNNER)
    expect(checked.code, output(checked)).toBe(0)
    expect(output(checked)).toMatch(/Tests:\s+4 passed/)
  })

  test('without it, the same program prints differently on the two machines', async () => {
    // The control: what the test environment prevents. The CLI inherits, as the seed says.
    const scenario = path.join(REPO_ROOT, 'test/fixtures/scenarios/env-report.json')
    const laptop = await runCli(['capture-process', scenario, '--json'], { env: withoutNull(LAPTOP) })
    const runner = await runCli(['capture-process', scenario, '--json'], { env: RUNNER })
    const text = (stdout: string) =>
      (JSON.parse(stdout) as { terminal: { chunks: { data: string }[] } }).terminal.chunks
        .map((chunk) => chunk.data)
        .join('')
    expect(text(laptop.stdout)).toContain('time zone Europe/Berlin')
    expect(text(runner.stdout)).toContain('time zone UTC')
    expect(text(runner.stdout)).toContain('colour depth 1')

    // --test-environment runs it as the plugin does: the two machines agree.
    const flag = ['capture-process', scenario, '--json', '--test-environment']
    const [a, b] = await Promise.all([
      runCli(flag, { env: withoutNull(LAPTOP) }),
      runCli(flag, { env: RUNNER }),
    ])
    expect(text(a.stdout)).toBe(text(b.stdout))
    expect(text(a.stdout)).toContain('colour depth 8')
  })
})

describe('times counted from the last synchronization point', () => {
  test('a prompt shown 0.6 s later passes by default and fails under strict (Vitest)', async () => {
    const project = vitestProject()
    const recorded = await runRunnerCli(VITEST, ['run', '-t', 'late'], project, LAPTOP)
    expect(recorded.code, output(recorded)).toBe(0)
    const slower = { ...RUNNER, FIXTURE_PROMPT_DELAY: '650' }
    const checked = await runRunnerCli(VITEST, ['run', '-t', 'late'], project, slower)
    expect(checked.code, output(checked)).toBe(0)
    const strict = await runRunnerCli(VITEST, ['run', '-t', 'late'], project, {
      ...slower,
      FIXTURE_TIMING: 'strict',
    })
    expect(strict.code).toBe(1)
    expect(output(strict)).toMatch(/exit\.at_ms/)
  })
})

/** The CLI helper takes only strings; the laptop's removals are implied by the helper's own environment. */
function withoutNull(env: Record<string, string | null>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== null),
  )
}
