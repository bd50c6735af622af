import { cpSync, existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { authorityPathFor } from '../../src/authority/authority-path.js'
import { fixtureProjects } from '../helpers/fixture-project.js'
import { REPO_ROOT } from '../helpers/fixtures.js'
import { obsoleteInIndex, recordedProject } from '../helpers/obsolete-project.js'
import { runRunnerCli } from '../helpers/run-runner-cli.js'

const JEST = path.join(REPO_ROOT, 'node_modules/jest/bin/jest.js')
const projectCopy = fixtureProjects('jest-obsolete', { links: ['@swc'] })

/** Runs the real Jest CLI in the project; `env` holds the fixture's switches. */
function jest(project: string, args: string[], env: Record<string, string> = {}) {
  return runRunnerCli(JEST, ['--rootDir', project, ...args], project, env)
}

/** The default authority of a test's first assertion in greet.test.ts, relative to the project. */
const authorityOf = (testName: string) =>
  path.relative('/p', authorityPathFor('/p/greet.test.ts', testName, 1))

const recorded = () => recordedProject(projectCopy, jest, authorityOf('says hi'))

describe('rea-capture/jest timing policies through the real Jest CLI', () => {
  test('a program three times slower passes by default and fails under strict; ignore still fails a changed output', async () => {
    const project = await recorded()
    // Only the slowed test runs: the project's `echo` captures are no subject here, and a stall of the loaded
    // machine while they were recorded (an exit moved by 655 ms once) would count as a difference.
    const slowed = ['--ci', 'greet.test.ts', '-t', '^says hi$']
    const slow = await jest(project, slowed, { FIXTURE_DELAY: '0.6' })
    expect(slow.code, slow.stderr).toBe(0)

    const strict = await jest(project, slowed, { FIXTURE_DELAY: '0.6', FIXTURE_TIMING: 'strict' })
    expect(strict.code).toBe(1)
    expect(strict.stderr).toMatch(/the root exited at a different time at exit\.at_ms/)

    const changed = await jest(project, slowed, {
      FIXTURE_DELAY: '0.6',
      FIXTURE_TIMING: 'ignore',
      FIXTURE_WORD: 'bye',
    })
    expect(changed.code).toBe(1)
    expect(changed.stderr).toContain('+bye')

    const bad = await jest(project, [], { FIXTURE_TIMING: '{"tolerance_ms":5}' })
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('configureRea: the options are not valid')
  })
})

describe('obsolete authority files through the real Jest CLI', () => {
  // Obsolete files are the subject here, not times: on a loaded machine a stall once moved an exit of `echo` by
  // 574 ms, which the tolerant policy counts as a difference.
  const untimed = (project: string, args: string[], env: Record<string, string> = {}) =>
    jest(project, args, { FIXTURE_TIMING: 'ignore', ...env })

  test('retries use their files, and two shards report nothing of each other', async () => {
    const project = await recorded()
    const ci = await untimed(project, ['--ci'])
    expect(ci.code, ci.stderr).toBe(0)
    expect(ci.stderr).not.toContain('obsolete authority')
    expect(obsoleteInIndex(project)).toEqual([])
    for (const shard of ['1/2', '2/2']) {
      const result = await untimed(project, ['--ci', `--shard=${shard}`])
      expect(result.code, result.stderr).toBe(0)
      expect(result.stderr).not.toContain('obsolete authority')
    }
  })

  test('a renamed test leaves a file a normal run reports, a filtered run does not, --ci fails on and -u removes', async () => {
    const project = await recorded()
    const old = authorityOf('says hi')
    const rename = { FIXTURE_RENAME: '1' }

    const local = await untimed(project, [], rename)
    expect(local.code, local.stderr).toBe(0)
    expect(local.stderr).toContain(
      '1 obsolete authority file: no assertion of this run used it; `jest -u` removes it',
    )
    expect(local.stderr).toContain(`↳ ${old}`)
    expect(obsoleteInIndex(project)).toEqual([
      { path: old, test_file: 'greet.test.ts', reason: 'unused', removed: false },
    ])

    const filtered = await untimed(project, ['--ci', '-t', 'counts'], rename)
    expect(filtered.code, filtered.stderr).toBe(0)
    expect(filtered.stderr).not.toContain('obsolete authority')
    const only = await untimed(project, ['--ci'], { ...rename, FIXTURE_ONLY: '1' })
    expect(only.code, only.stderr).toBe(0)
    expect(only.stderr).not.toContain('obsolete authority')

    const ci = await untimed(project, ['--ci'], rename)
    expect(ci.code).toBe(1)
    expect(ci.stderr).toContain(
      '1 obsolete authority file found when no update is expected (a CI run): no assertion of this run used it.',
    )
    expect(ci.stderr).toContain(`· ${old}`)
    expect(ci.stderr).toContain('Remove it with `jest -u`')
    // Jest's own summary counts it: the test file failed, and no frame of REA's built files is shown.
    expect(ci.stderr).toMatch(/Test Suites: 1 failed/)
    expect(ci.stderr).not.toMatch(/node_modules\/rea-capture\/dist|\/dist\/(matchers|reporter)/)

    // Without rea-capture/jest-reporter, the setup entry finds the test file's obsolete authority itself; -u removes it.
    const alone = await untimed(project, ['-u', '--reporters=default'], rename)
    expect(alone.code).toBe(0)
    expect(alone.stderr).toContain(
      'rea: greet.test.ts: 1 obsolete authority file: no test of this file used it; removed.',
    )
    expect(existsSync(path.join(project, old))).toBe(false)
    expect((await untimed(project, ['--ci'], rename)).code).toBe(0)
  })

  test('a deleted test file’s folder is reported by a run of the whole project, counted by --ci and removed with -u', async () => {
    const project = await recorded()
    const captures = path.join(project, '__captures__')
    cpSync(path.join(captures, 'greet.test.ts'), path.join(captures, 'deleted.test.ts'), { recursive: true })
    const part = await untimed(project, ['--ci', 'again'])
    expect(part.code, part.stderr).toBe(0)
    expect(part.stderr).not.toContain('deleted.test.ts')
    // A run filtered by test name proves nothing about the project's files.
    const filtered = await untimed(project, ['--ci', '-t', 'counts'])
    expect(filtered.code, filtered.stderr).toBe(0)
    expect(filtered.stderr).not.toContain('deleted.test.ts')

    // --ci: both test files pass, and Jest's own summary counts the deleted test file's folder as a failed suite,
    // with the message naming its files and `jest -u`, and no frame of REA's built files.
    const ci = await untimed(project, ['--ci'])
    expect(ci.code, ci.stderr).toBe(1)
    expect(ci.stderr).toMatch(/Test Suites: 1 failed, 2 passed, 3 total/)
    expect(ci.stderr).toContain(
      '2 obsolete authority files found when no update is expected (a CI run): no assertion of this run used them.',
    )
    expect(ci.stderr).toMatch(
      /· __captures__\/deleted\.test\.ts\/says hi 1-[0-9a-f]{8}\.capture\.json \(its test file is gone\)/,
    )
    expect(ci.stderr).toContain('Remove them with `jest -u`')
    expect(ci.stderr).not.toMatch(/node_modules\/rea-capture\/dist|\/dist\/(matchers|reporter)/)

    const local = await untimed(project, [])
    expect(local.stderr).toContain('2 obsolete authority files')
    expect(local.stderr).toContain('(its test file is gone)')
    expect((await untimed(project, ['-u'])).code).toBe(0)
    expect(readdirSync(captures).sort()).toEqual(['again.test.ts', 'greet.test.ts'])
  })
})
