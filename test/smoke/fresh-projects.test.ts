import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { runRunnerCli, type RunnerCliResult } from '../helpers/run-runner-cli.js'

/**
 * Projects a user made the way users make them: a folder with `npm init`, then `npm install --save-dev` of the
 * runner, TypeScript and the packed rea-capture tarball, with no `--legacy-peer-deps` and no `--force`, and the
 * files of test/fixtures/projects/fresh-vitest or fresh-jest copied in. `.ci/runner-matrix` makes them (Vitest 5 and
 * Jest 30 on Node 24, Jest 29 on Node 20) and names them in REA_FRESH_PROJECTS, separated by `:`; each runs under
 * the Node.js that runs this file.
 */
const FRESH_PROJECTS_ENV = 'REA_FRESH_PROJECTS'
const projects = (process.env[FRESH_PROJECTS_ENV] ?? '').split(':').filter((folder) => folder !== '')
if (projects.length === 0) {
  console.log(`${FRESH_PROJECTS_ENV} names no project: .ci/runner-matrix makes them and runs this file.`)
  test.skip('fresh projects installed from the tarball (none named)', () => {})
}

interface Runner {
  readonly name: 'vitest' | 'jest'
  readonly version: string
  /** The runner's CLI in the project, with the arguments of one run. */
  run(project: string, env?: Record<string, string>): Promise<RunnerCliResult>
}

function runnerOf(project: string): Runner {
  const installed = (name: string): string | undefined => {
    const manifest = path.join(project, 'node_modules', name, 'package.json')
    return existsSync(manifest)
      ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version
      : undefined
  }
  const vitest = installed('vitest')
  if (vitest !== undefined) {
    const cli = path.join(project, 'node_modules/vitest/vitest.mjs')
    return { name: 'vitest', version: vitest, run: (cwd, env) => runRunnerCli(cli, ['run'], cwd, env) }
  }
  const jest = installed('jest')
  if (jest === undefined) {
    throw new Error(`${project} has neither vitest nor jest installed`)
  }
  const cli = path.join(project, 'node_modules/jest/bin/jest.js')
  return { name: 'jest', version: jest, run: (cwd, env) => runRunnerCli(cli, [], cwd, env) }
}

const output = (result: RunnerCliResult): string => result.stdout + result.stderr

const rows = projects.map((project) => {
  const runner = runnerOf(project)
  return [`${runner.name} ${runner.version} on Node ${process.versions.node}`, project, runner] as const
})

describe.each(rows)('%s, installed from the tarball', (_title, project, runner) => {
  const captures = path.join(project, '__captures__/greet.test.ts')
  const program = path.join(project, 'greet.mjs')

  test('the install built REA’s own PTY spawner', async () => {
    const cli = path.join(project, 'node_modules/rea-capture/dist/cli/main.cjs')
    const result = await runRunnerCli(cli, ['capabilities', '--json'], project)
    expect(result.code, result.stderr).toBe(0)
    const report = JSON.parse(result.stdout) as { pty_backend: { detail: string } }
    expect(report.pty_backend.detail).toMatch(/^the native PTY backend ran a test process/)
  })

  test('the first run records the authority', async () => {
    const result = await runner.run(project)
    expect(result.code, output(result)).toBe(0)
    expect(readdirSync(captures)).toEqual([
      expect.stringMatching(/^greets the user 1-[0-9a-f]{8}\.capture\.json$/),
    ])
  })

  test('a CI run passes and writes nothing', async () => {
    const before = readdirSync(captures)
    const result = await runner.run(project, { CI: 'true' })
    expect(result.code, output(result)).toBe(0)
    expect(readdirSync(captures)).toEqual(before)
  })

  test('an obsolete authority fails CI', async () => {
    const [authority] = readdirSync(captures)
    const obsolete = path.join(captures, 'a removed test 1-00000000.capture.json')
    copyFileSync(path.join(captures, authority!), obsolete)
    try {
      const result = await runner.run(project, { CI: 'true' })
      expect(result.code).toBe(1)
      expect(output(result)).toContain('obsolete')
      expect(output(result)).toContain('a removed test 1-00000000.capture.json')
    } finally {
      rmSync(obsolete)
    }
  })

  test('a one-word change fails CI and shows both words; the reporter writes its folder', async () => {
    const original = readFileSync(program, 'utf8')
    writeFileSync(program, original.replace('Hello', 'Howdy'))
    try {
      const result = await runner.run(project, { CI: 'true' })
      expect(result.code).toBe(1)
      expect(output(result)).toContain('the capture differs from its authority')
      expect(output(result)).toContain('-Hello, Ada!')
      expect(output(result)).toContain('+Howdy, Ada!')
    } finally {
      writeFileSync(program, original)
    }
    const report = path.join(project, 'rea-report')
    const index = JSON.parse(readFileSync(path.join(report, 'index.json'), 'utf8')) as {
      runner: string
      entries: { passed: boolean; files: Record<string, string | null> }[]
    }
    expect(index.runner).toBe(runner.name)
    const failed = index.entries.filter((entry) => !entry.passed)
    expect(failed).toHaveLength(1)
    expect(existsSync(path.join(report, failed[0]!.files['divergence']!))).toBe(true)
    expect(existsSync(path.join(report, 'summary.md'))).toBe(true)
  })

  test('a strict TypeScript test file with both matchers compiles with skipLibCheck off', async () => {
    const config = JSON.parse(readFileSync(path.join(project, 'tsconfig.json'), 'utf8')) as {
      compilerOptions: { strict: boolean; skipLibCheck: boolean }
    }
    expect(config.compilerOptions).toMatchObject({ strict: true, skipLibCheck: false })
    const tsc = path.join(project, 'node_modules/typescript/bin/tsc')
    const result = await runRunnerCli(tsc, ['-p', project], project)
    expect(result.code, output(result)).toBe(0)
  })
})
