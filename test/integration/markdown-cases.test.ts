import { execFile } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'
import { fixtureProjects } from '../helpers/fixture-project.js'
import { REPO_ROOT } from '../helpers/fixtures.js'
import { runCli } from '../helpers/run-cli.js'
import { runRunnerCli } from '../helpers/run-runner-cli.js'
import { VITEST_CLI } from '../helpers/vitest-under-test.js'

const run = promisify(execFile)
const VITEST = VITEST_CLI
const JEST = path.join(REPO_ROOT, 'node_modules/jest/bin/jest.js')
/** Typed into the sign-up block from the environment; never written anywhere. */
const SECRET = 'correct-horse'
// CI off: a run under CI (as .ci/run sets it) must not make -u refuse; the CI refusal has its own test.
const ENV = { SIGNUP_PASSWORD: SECRET, CI: '' }

/** A project whose docs/ folder is its tests, with rea-capture installed. */
const projectCopy = fixtureProjects('markdown-docs')

function guide(project: string): string {
  return path.join(project, 'docs/guide.md')
}

/** greet.mjs says "Hallo" from now on: every block that shows a greeting no longer holds. */
function changeGreeting(project: string): void {
  const program = path.join(project, 'docs/programs/greet.mjs')
  writeFileSync(program, readFileSync(program, 'utf8').replace('Hello, ${name}!', 'Hallo, ${name}!'))
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
}

describe('rea test', () => {
  test('runs a docs folder: a plain command, typed input, a secret, a full-screen program, wildcards, an exit code', async () => {
    const project = projectCopy()
    const result = await runCli(['test', 'docs', '--junit', 'junit.xml'], { cwd: project, env: ENV })
    expect(result.stdout).toContain('docs/no-blocks.md: no console blocks')
    expect(result.stdout).toMatch(/PASS {2}docs\/guide\.md \(5 blocks, 1 ignored\)/)
    expect(result.stdout).toContain(
      '6 blocks in 2 files: 5 passed, 0 failed, 0 unknown, 0 invalid, 1 ignored',
    )
    expect(result.code).toBe(0)
    const index = JSON.parse(readFileSync(path.join(project, 'rea-report/index.json'), 'utf8')) as {
      runner: string
      entries: { test_file: string; outcome: string; matcher: string }[]
    }
    expect(index.runner).toBe('rea')
    expect(index.entries.map((entry) => entry.outcome)).toEqual([
      'matched',
      'matched',
      'matched',
      'matched',
      'matched',
    ])
    expect(
      index.entries.every((entry) => entry.matcher === 'markdown' && entry.test_file === 'docs/guide.md'),
    ).toBe(true)
    const junit = readFileSync(path.join(project, 'junit.xml'), 'utf8')
    expect(junit).toContain('<testsuite name="docs/guide.md" tests="6" failures="0" errors="0" skipped="1"')
    // The secret was typed, and is nowhere in what the run wrote.
    for (const file of [...filesUnder(path.join(project, 'rea-report')), path.join(project, 'junit.xml')]) {
      expect(readFileSync(file, 'utf8')).not.toContain(SECRET)
    }
  })

  test('a changed program fails with file:line and the diff; --update rewrites only the changed lines and keeps [..]', async () => {
    const project = projectCopy()
    const before = readFileSync(guide(project), 'utf8')
    changeGreeting(project)
    const failed = await runCli(['test', 'docs/guide.md'], { cwd: project, env: ENV })
    expect(failed.code).toBe(1)
    expect(failed.stdout).toContain('✗ docs/guide.md:10 › Using greet (line 10)')
    expect(failed.stdout).toContain('12 - Hello, Ada!')
    expect(failed.stdout).toContain('+ Hallo, Ada!')
    expect(failed.stdout).toMatch(/divergence page: rea-report\/docs\/guide\.md\/.*\/divergence\.html/)
    expect(failed.stdout).toContain('`rea test -u docs/guide.md` rewrites the lines that differ')

    const updated = await runCli(['test', '-u', 'docs/guide.md'], { cwd: project, env: ENV })
    expect(updated.code, updated.stdout + updated.stderr).toBe(0)
    expect(updated.stdout).toContain('2 updated')
    const after = readFileSync(guide(project), 'utf8')
    const changedLines = before
      .split('\n')
      .flatMap((line, index) => (after.split('\n')[index] === line ? [] : [index + 1]))
    expect(changedLines).toEqual([12, 20, 21])
    expect(after).toContain('Greeted 2 in [..]')
    expect(after).toContain('Greeted 1 in [CWD] (took [DURATION])')
    expect(after).toContain('Password: {{$SIGNUP_PASSWORD}}{Enter}')
    expect(after).not.toContain(SECRET)
    expect((await runCli(['test', 'docs/guide.md'], { cwd: project, env: ENV })).code).toBe(0)
  })

  test('a CI run never writes, even with --update', async () => {
    const project = projectCopy()
    changeGreeting(project)
    const before = readFileSync(guide(project), 'utf8')
    const result = await runCli(['test', '-u', 'docs/guide.md', '--no-report'], {
      cwd: project,
      env: { ...ENV, CI: 'true' },
    })
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('CI is set, so --update writes nothing')
    expect(readFileSync(guide(project), 'utf8')).toBe(before)
  })

  test('bad input names file:line and its rule, runs none of those blocks, and still runs the others', async () => {
    const result = await runCli(['test', 'test/fixtures/markdown/bad-input.md', '--no-report'])
    expect(result.code).toBe(3)
    const file = 'test/fixtures/markdown/bad-input.md'
    for (const [line, rule] of [
      [12, 'unknown_option'],
      [21, 'input_without_prompt'],
      [29, 'status'],
      [37, 'unknown_key'],
      [44, 'sensitive_unset'],
      [50, 'expected_command'],
      [55, 'unterminated_block'],
    ] as const) {
      expect(result.stdout).toMatch(new RegExp(`${file}:${line}: .*\\[${rule}\\]`))
    }
    expect(result.stdout).toContain('did you mean `cols`?')
    expect(result.stdout).toContain('did you mean {Enter}?')
    expect(result.stdout).toContain('8 blocks in 1 file: 1 passed, 0 failed, 0 unknown, 7 invalid')
  })

  test('color compares the styles, written as marks; without it only the characters count', async () => {
    const result = await runCli(['test', 'test/fixtures/markdown/color.md', '--no-report'])
    expect(result.stdout).toContain('2 blocks in 1 file: 2 passed')
    expect(result.code).toBe(0)
  })

  test('a line that differs only in a date without a time is told to write [TIMESTAMP]', async () => {
    // The hint reads the filters as a case's capture is normalized (builtin-filters-v2, where dates without a time
    // are timestamps); read with v1's definitions it named nothing.
    const result = await runCli(['test', 'test/fixtures/markdown/changing-date.md', '--no-report'])
    expect(result.code).toBe(1)
    expect(result.stdout).toContain(
      'write [TIMESTAMP] where it is (the token turns the timestamps filter on)',
    )
  })

  test('names what matched nothing, and runs nothing when nothing matched', async () => {
    const result = await runCli(['test', 'no/such/folder', 'nothing-*.md'])
    expect(result.code).toBe(3)
    expect(result.stderr).toContain('no/such/folder: no such file or folder')
    expect(result.stderr).toContain('nothing-*.md: no Markdown file matches')
  })
})

describe('the same docs under Vitest and Jest', () => {
  test('Vitest: each block a test named by its heading and line; a change fails at file:line; -u rewrites', async () => {
    const project = projectCopy()
    const passed = await runRunnerCli(VITEST, ['run'], project, ENV)
    expect(passed.stdout).toContain('Tests  5 passed | 2 skipped (7)')
    expect(passed.code).toBe(0)
    changeGreeting(project)
    const failed = await runRunnerCli(VITEST, ['run'], project, ENV)
    expect(failed.code).toBe(1)
    expect(failed.stdout + failed.stderr).toContain('Using greet (line 10)')
    expect(failed.stdout + failed.stderr).toContain('docs/guide.md:10:1')
    expect(failed.stdout + failed.stderr).toContain('12 - Hello, Ada!')
    const updated = await runRunnerCli(VITEST, ['run', '-u'], project, ENV)
    expect(updated.code).toBe(0)
    expect(readFileSync(guide(project), 'utf8')).toContain('Hallo, Grace!')
    expect(readFileSync(guide(project), 'utf8')).toContain('Greeted 2 in [..]')
  })

  test('Jest: the transform runs the same blocks; a change fails at file:line', async () => {
    const project = projectCopy()
    const jest = (flags: string[] = []) =>
      run(process.execPath, [JEST, '--rootDir', project, ...flags], {
        cwd: project,
        env: { ...process.env, ...ENV, CI: '' },
      }).then(
        ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
        (error: unknown) => {
          const failed = error as { code?: number; stdout?: string; stderr?: string }
          return { code: failed.code ?? -1, output: (failed.stdout ?? '') + (failed.stderr ?? '') }
        },
      )
    const passed = await jest()
    expect(passed.output).toMatch(/Tests: +2 skipped, 5 passed, 7 total/)
    expect(passed.code).toBe(0)
    changeGreeting(project)
    const failed = await jest()
    expect(failed.code).toBe(1)
    expect(failed.output).toContain('● Using greet (line 10)')
    expect(failed.output).toContain('at docs/guide.md:10:1')
  })
})
