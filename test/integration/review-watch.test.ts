import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { captureProcess, type Evidence } from '../../src/index.js'
import { fixtureProjects } from '../helpers/fixture-project.js'
import { REPO_ROOT } from '../helpers/fixtures.js'
import { runRunnerCli } from '../helpers/run-runner-cli.js'

/**
 * Pending captures in watch mode, where people see a failure and fix it without leaving the runner: the run that
 * fails keeps the capture, the run that matches again clears it. The runners run in a real terminal (captured by
 * REA): watch mode needs one. The program takes `chores` at its first run and `tasks`, the authority's word, after.
 */

const VITEST = path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs')
const JEST = path.join(REPO_ROOT, 'node_modules/jest/bin/jest.js')
const vitestProject = fixtureProjects('vitest-review')
const jestProject = fixtureProjects('jest-review', { links: ['@swc'] })

/** The runner's own environment left out, as a person's terminal has none of it; no CI, no colour. */
const PERSON = {
  CI: null,
  'GITHUB_*': null,
  'VITEST_*': null,
  VITEST: null,
  TEST: null,
  NODE_ENV: null,
  MODE: null,
  PROD: null,
  DEV: null,
  BASE_URL: null,
  SSR: null,
  FORCE_TTY: null,
  'REA_REPORT*': null,
  NO_COLOR: '1',
  // Jest's colours follow chalk, which reads FORCE_COLOR rather than NO_COLOR.
  FORCE_COLOR: '0',
  FIXTURE_WORDS: 'chores,tasks',
}

const output = (evidence: Evidence) => evidence.terminal.chunks.map((chunk) => chunk.data).join('')
const pendingFiles = (project: string) =>
  readdirSync(path.join(project, '__captures__'), { recursive: true, encoding: 'utf8' }).filter((name) =>
    name.endsWith('.pending-capture.json'),
  )

/** Runs the runner in watch mode: once it waits for keys after the failing run, `rerun`; once it passed, quit. */
async function watch(
  project: string,
  args: readonly string[],
  idle: string,
  rerun: string,
  passed: string,
): Promise<Evidence> {
  return await captureProcess({
    executable: process.execPath,
    arguments: [...args],
    working_directory: project,
    environment: PERSON,
    terminal: { columns: 160, rows: 50 },
    events: [
      // Keys typed while tests run are not read: the rerun waits for the runner's own prompt.
      { type: 'input', data: rerun, after: { output: idle } },
      { type: 'input', data: 'q', after: { output_regex: passed } },
    ],
    timeout_ms: 150_000,
  })
}

describe('watch mode', () => {
  test(
    'Vitest: the failing run keeps a pending capture, the rerun that matches clears it',
    { timeout: 300_000 },
    async () => {
      const project = vitestProject()
      const recorded = await runRunnerCli(VITEST, ['run'], project)
      expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0)
      const evidence = await watch(project, [VITEST], 'press h to show help', 'a', 'Tests +2 passed')
      expect(
        evidence.interactions.map((interaction) => interaction.outcome),
        output(evidence),
      ).toEqual(['dispatched', 'dispatched'])
      expect(output(evidence)).toMatch(
        /greets and counts the tasks 1-[0-9a-f]{8}\.[0-9a-f]{8}\.pending-capture\.json/,
      )
      expect(pendingFiles(project)).toEqual([])
      expect(existsSync(path.join(project, '.fixture-runs'))).toBe(true)
    },
  )

  test('Jest: the same with --watchAll', { timeout: 300_000 }, async () => {
    const project = jestProject()
    const recorded = await runRunnerCli(JEST, ['--rootDir', project, '--ci=false'], project)
    expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0)
    const evidence = await watch(
      project,
      [JEST, '--rootDir', project, '--watchAll', '--ci=false'],
      'Press Enter to trigger a test run.',
      '\r',
      'Tests: +2 passed',
    )
    expect(
      evidence.interactions.map((interaction) => interaction.outcome),
      output(evidence),
    ).toEqual(['dispatched', 'dispatched'])
    expect(output(evidence)).toMatch(
      /greets and counts the tasks 1-[0-9a-f]{8}\.[0-9a-f]{8}\.pending-capture\.json/,
    )
    expect(pendingFiles(project)).toEqual([])
  })
})
