import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { fixtureProjects } from '../helpers/fixture-project.js'
import { REPO_ROOT } from '../helpers/fixtures.js'
import { committed, git } from '../helpers/git-project.js'
import { runRunnerCli } from '../helpers/run-runner-cli.js'

/** Authorities reviewed in pull requests, and obsolete ones found with the setup entry alone (no reporter). */

const VITEST = path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs')
const JEST = path.join(REPO_ROOT, 'node_modules/jest/bin/jest.js')
const vitestProject = fixtureProjects('vitest-review')
const jestProject = fixtureProjects('jest-review', { links: ['@swc'] })

const output = (result: { stdout: string; stderr: string }) => result.stdout + result.stderr

describe('authorities a reviewer can read', () => {
  test('a one-word change re-recorded with -u is a small diff whose old and new line read plainly; a rerun rewrites nothing', async () => {
    const project = vitestProject()
    const recorded = await runRunnerCli(VITEST, ['run'], project)
    expect(recorded.code, output(recorded)).toBe(0)
    committed(project)

    const updated = await runRunnerCli(VITEST, ['run', '-u'], project, { FIXTURE_WORD: 'chores' })
    expect(updated.code, output(updated)).toBe(0)
    const numstat = git(project, 'diff', '--numstat')
    const changedLines = numstat
      .trim()
      .split('\n')
      .map((line) => line.split('\t'))
      .reduce((sum, [added, removed]) => sum + Number(added) + Number(removed), 0)
    expect(numstat.trim().split('\n')).toHaveLength(1)
    expect(changedLines, numstat).toBeLessThanOrEqual(30)
    const diff = git(project, 'diff', '-U0')
    // The review section shows each on a line of its own: no escape code, nothing but the text.
    const readable = (sign: string, text: string) =>
      diff
        .split('\n')
        .filter(
          (line) => line.startsWith(sign) && line.slice(1).trim().replace(/,$/, '') === JSON.stringify(text),
        )
    expect(readable('-', 'You have 3 tasks today.').length, diff).toBeGreaterThan(0)
    expect(readable('+', 'You have 3 chores today.').length, diff).toBeGreaterThan(0)

    git(project, 'commit', '-q', '-am', 'chores')
    const again = await runRunnerCli(VITEST, ['run', '-u'], project, { FIXTURE_WORD: 'chores' })
    expect(again.code, output(again)).toBe(0)
    expect(git(project, 'status', '--porcelain')).toBe('')
  })
})

describe('obsolete authorities with the setup entry alone', () => {
  test('Vitest: a renamed test leaves a file a local run reports, CI fails on and -u removes', async () => {
    const project = vitestProject()
    expect((await runRunnerCli(VITEST, ['run'], project)).code).toBe(0)
    committed(project)
    const renamed = { FIXTURE_RENAME: '1' }

    const local = await runRunnerCli(VITEST, ['run'], project, renamed)
    expect(local.code, output(local)).toBe(0)
    expect(output(local)).toMatch(
      /todo\.test\.mjs: 1 obsolete authority file[\s\S]*prints the banner 1-[0-9a-f]{8}\.capture\.json/,
    )

    const filtered = await runRunnerCli(VITEST, ['run', '-t', 'greets'], project, { ...renamed, CI: 'true' })
    expect(filtered.code, output(filtered)).toBe(0)

    const ci = await runRunnerCli(VITEST, ['run'], project, { ...renamed, CI: 'true' })
    expect(ci.code).toBe(1)
    expect(output(ci)).toMatch(
      /1 obsolete authority file[\s\S]*prints the banner 1-[0-9a-f]{8}\.capture\.json[\s\S]*vitest -u/,
    )

    const update = await runRunnerCli(VITEST, ['run', '-u'], project, renamed)
    expect(update.code, output(update)).toBe(0)
    expect(git(project, 'status', '--porcelain')).toMatch(/^ D .*prints the banner 1-/m)
    expect((await runRunnerCli(VITEST, ['run'], project, { ...renamed, CI: 'true' })).code).toBe(0)
  })

  test('Jest: the same', async () => {
    const project = jestProject()
    const jest = (args: string[], env: Record<string, string> = {}) =>
      runRunnerCli(JEST, ['--rootDir', project, ...args], project, env)
    expect((await jest(['--ci=false'])).code).toBe(0)
    committed(project)
    const renamed = { FIXTURE_RENAME: '1' }

    const local = await jest(['--ci=false'], renamed)
    expect(local.code, output(local)).toBe(0)
    expect(output(local)).toMatch(/todo\.test\.ts: 1 obsolete authority file/)

    const ci = await jest(['--ci'], renamed)
    expect(ci.code).toBe(1)
    expect(output(ci)).toMatch(
      /1 obsolete authority file[\s\S]*prints the banner 1-[0-9a-f]{8}\.capture\.json[\s\S]*jest -u/,
    )

    const update = await jest(['--ci=false', '-u'], renamed)
    expect(update.code, output(update)).toBe(0)
    expect(git(project, 'status', '--porcelain')).toMatch(/^ D .*prints the banner 1-/m)
    expect((await jest(['--ci'], renamed)).code).toBe(0)
  })
})
