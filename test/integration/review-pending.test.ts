import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { fixtureProjects } from '../helpers/fixture-project.js'
import { REPO_ROOT } from '../helpers/fixtures.js'
import { committed, git } from '../helpers/git-project.js'
import { runCli } from '../helpers/run-cli.js'
import { runRunnerCli } from '../helpers/run-runner-cli.js'

/**
 * Pending captures as users meet them: a real Vitest or Jest project, a program changed on purpose, a local run
 * that keeps the new capture for review, and `rea review` accepting or rejecting it.
 */

const VITEST = path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs')
const JEST = path.join(REPO_ROOT, 'node_modules/jest/bin/jest.js')
const vitestProject = fixtureProjects('vitest-review')
const jestProject = fixtureProjects('jest-review', { links: ['@swc'] })

const LONG = { timeout: 400_000 }
const PENDING_NAME = /greets and counts the tasks 1-[0-9a-f]{8}\.[0-9a-f]{8}\.pending-capture\.json/
const CHORES = { FIXTURE_WORD: 'chores' }

const output = (result: { stdout: string; stderr: string }) => result.stdout + result.stderr

/** Every pending capture in the project's `__captures__` folder. */
function pendingFiles(project: string): string[] {
  const folder = path.join(project, '__captures__')
  if (!existsSync(folder)) {
    return []
  }
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) =>
    name.endsWith('.pending-capture.json'),
  )
}

const authorityOf = (project: string, testFile = 'todo.test.mjs') =>
  path.join(
    project,
    '__captures__',
    testFile,
    readdirSync(path.join(project, '__captures__', testFile)).find((name) =>
      /^greets and counts the tasks 1-[0-9a-f]{8}\.capture\.json$/.test(name),
    ) ?? 'missing',
  )

const rea = (project: string, ...args: string[]) => runCli(['review', ...args], { cwd: project })

/** The number of lines `git diff --numstat` counts for the authorities (added plus removed). */
function changedLines(project: string): number {
  return git(project, 'diff', '--numstat')
    .trim()
    .split('\n')
    .map((line) => line.split('\t'))
    .reduce((sum, [added, removed]) => sum + Number(added) + Number(removed), 0)
}

describe('pending captures with Vitest', () => {
  test(
    'a local run keeps the changed capture and names it; CI writes none; --accept makes CI pass',
    LONG,
    async () => {
      const project = vitestProject()
      const vitest = (args: string[], env: Record<string, string> = {}) =>
        runRunnerCli(VITEST, ['run', ...args], project, env)
      expect((await vitest([])).code).toBe(0)
      committed(project)

      const ci = await vitest([], { ...CHORES, CI: 'true' })
      expect(ci.code, output(ci)).toBe(1)
      expect(pendingFiles(project)).toEqual([])

      const local = await vitest([], CHORES)
      expect(local.code, output(local)).toBe(1)
      expect(output(local)).toMatch(PENDING_NAME)
      expect(output(local)).toContain('`npx rea review`')
      const [pending] = pendingFiles(project)
      expect(pending).toMatch(PENDING_NAME)
      // Named after its authority, beside it, and never taken for one.
      expect(path.basename(pending!).startsWith(path.basename(authorityOf(project), '.capture.json'))).toBe(
        true,
      )
      expect(output(local)).not.toMatch(/obsolete/)

      const listed = await rea(project, '--list', '--json')
      expect(listed.code, listed.stderr).toBe(0)
      expect(JSON.parse(listed.stdout)).toMatchObject({
        pending: [
          {
            test: { file: 'todo.test.mjs', name: 'greets and counts the tasks', assertion: 1 },
            state: 'ready',
            differing_dimensions: ['terminal'],
          },
        ],
      })

      const accepted = await rea(project, '--accept')
      expect(accepted.code, accepted.stderr).toBe(0)
      expect(accepted.stdout).toMatch(/^accepted: /m)
      expect(pendingFiles(project)).toEqual([])
      const after = await vitest([], { ...CHORES, CI: 'true' })
      expect(after.code, output(after)).toBe(0)
    },
  )

  test(
    '--reject leaves the authority byte for byte; a matching run, and a -u run, clear a stale one',
    LONG,
    async () => {
      const project = vitestProject()
      const vitest = (args: string[], env: Record<string, string> = {}) =>
        runRunnerCli(VITEST, ['run', ...args], project, env)
      expect((await vitest([])).code).toBe(0)
      committed(project)
      const authority = readFileSync(authorityOf(project))

      expect((await vitest([], CHORES)).code).toBe(1)
      const rejected = await rea(project, '--reject', 'greets and counts')
      expect(rejected.code, rejected.stderr).toBe(0)
      expect(pendingFiles(project)).toEqual([])
      expect(readFileSync(authorityOf(project)).equals(authority)).toBe(true)

      expect((await vitest([], CHORES)).code).toBe(1)
      expect(pendingFiles(project)).toHaveLength(1)
      const matching = await vitest([])
      expect(matching.code, output(matching)).toBe(0)
      expect(pendingFiles(project)).toEqual([])

      expect((await vitest([], CHORES)).code).toBe(1)
      const update = await vitest(['-u'], CHORES)
      expect(update.code, output(update)).toBe(0)
      expect(pendingFiles(project)).toEqual([])
      expect(git(project, 'status', '--porcelain')).toMatch(/^ M .*greets and counts the tasks 1-/m)
      // A one-word change re-recorded: the word's lines and the evidence lines that change on every run.
      expect(changedLines(project)).toBeLessThanOrEqual(14)
    },
  )

  test(
    'a colour change is in the review diff, and re-recorded it changes at most 12 lines',
    LONG,
    async () => {
      const project = vitestProject()
      const vitest = (args: string[], env: Record<string, string> = {}) =>
        runRunnerCli(VITEST, ['run', ...args], project, env)
      expect((await vitest([])).code).toBe(0)
      committed(project)
      const colour = { FIXTURE_COLOR: '1' }

      expect((await vitest([], colour)).code).toBe(1)
      const shown = await rea(project, '--show', 'greets', '--json')
      expect(shown.code, shown.stderr).toBe(0)
      const diff = (JSON.parse(shown.stdout) as { review_diff: string }).review_diff
      expect(diff).toMatch(/^- +"1: 1-8 bold «Todo CLI»"$/m)
      expect(diff).toMatch(/^\+ +"1: 1-7 bold «Todo CL», 8 bold red «I»"$/m)

      const update = await vitest(['-u'], colour)
      expect(update.code, output(update)).toBe(0)
      expect(changedLines(project)).toBeLessThanOrEqual(12)
      expect(git(project, 'diff', '-U0')).toMatch(/^\+ +"1: 1-7 bold «Todo CL», 8 bold red «I»"/m)
    },
  )
})

/** A test file of its own comparing with the one authority every such file shares. */
const sharedTest = (side: string) => `import { expect, test } from 'rea-capture/vitest'
test('${side} prints its side', async ({ captureProcess }) => {
  const text = process.env.FIXTURE_SIDES ? '${side}' : 'same'
  const capture = await captureProcess({ executable: 'printf', arguments: [text + '\\n'] })
  expect(capture).toMatchCapture('shared.capture.json', { timing: 'ignore' })
})
`

describe('pending captures with Vitest workers', () => {
  test(
    'two workers keeping a pending capture of the same authority leave one whole file, reviewable',
    LONG,
    async () => {
      const project = vitestProject()
      for (const side of ['left', 'right', 'third', 'fourth']) {
        writeFileSync(path.join(project, `shared-${side}.test.mjs`), sharedTest(side))
      }
      const vitest = (args: string[], env: Record<string, string> = {}) =>
        runRunnerCli(VITEST, ['run', '--maxWorkers=2', ...args], project, env)
      const first = await vitest([])
      expect(first.code, output(first)).toBe(0)
      const local = await vitest([], { FIXTURE_SIDES: '1' })
      expect(local.code, output(local)).toBe(1)
      const pending = readdirSync(project).filter((name) => name.endsWith('.pending-capture.json'))
      expect(pending).toHaveLength(1)
      expect(pending[0]).toMatch(/^shared\.[0-9a-f]{8}\.pending-capture\.json$/)
      // Whichever worker wrote last, the file is one whole capture that can be reviewed and accepted.
      const listed = await rea(project, '--list', '--json', 'shared.capture.json')
      expect(listed.code, listed.stderr).toBe(0)
      expect(JSON.parse(listed.stdout)).toMatchObject({ pending: [{ state: 'ready' }] })
      const accepted = await rea(project, '--accept', pending[0]!)
      expect(accepted.code, accepted.stdout).toBe(0)
      expect(readFileSync(path.join(project, 'shared.capture.json'), 'utf8')).toMatch(
        /"(left|right|third|fourth)"/,
      )
    },
  )
})

describe('pending captures with Jest', () => {
  test(
    'kept and named locally, accepted for CI, rejected without a trace, cleared by a match',
    LONG,
    async () => {
      const project = jestProject()
      const jest = (args: string[], env: Record<string, string> = {}) =>
        runRunnerCli(JEST, ['--rootDir', project, ...args], project, env)
      expect((await jest(['--ci=false'])).code).toBe(0)
      committed(project)

      expect((await jest(['--ci'], CHORES)).code).toBe(1)
      expect(pendingFiles(project)).toEqual([])
      const local = await jest(['--ci=false'], CHORES)
      expect(local.code, output(local)).toBe(1)
      expect(output(local)).toMatch(PENDING_NAME)
      expect(output(local)).toContain('`npx rea review`')

      expect((await rea(project, '--accept', 'todo.test.ts')).code).toBe(0)
      expect(pendingFiles(project)).toEqual([])
      const ci = await jest(['--ci'], CHORES)
      expect(ci.code, output(ci)).toBe(0)
      git(project, 'commit', '-q', '-am', 'chores')

      expect((await jest(['--ci=false'])).code).toBe(1)
      const authority = readFileSync(authorityOf(project, 'todo.test.ts'))
      expect((await rea(project, '--reject')).code).toBe(0)
      expect(readFileSync(authorityOf(project, 'todo.test.ts')).equals(authority)).toBe(true)
      expect(pendingFiles(project)).toEqual([])

      expect((await jest(['--ci=false'])).code).toBe(1)
      expect(pendingFiles(project)).toHaveLength(1)
      expect((await jest(['--ci=false'], CHORES)).code).toBe(0)
      expect(pendingFiles(project)).toEqual([])
    },
  )
})
