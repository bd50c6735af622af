import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { readEvidenceFileSync } from '../../src/evidence/load.js'
import { fixtureProjects } from '../helpers/fixture-project.js'
import { REPO_ROOT } from '../helpers/fixtures.js'
import { runRunnerCli } from '../helpers/run-runner-cli.js'

const JEST = path.join(REPO_ROOT, 'node_modules/jest/bin/jest.js')
const projectCopy = fixtureProjects('jest-report', { links: ['@swc'] })

/** Runs the real Jest CLI in the project. */
function jest(project: string, args: string[], env: Record<string, string> = {}) {
  return runRunnerCli(JEST, ['--rootDir', project, ...args], project, env)
}

interface IndexEntry {
  readonly test_file: string
  readonly matcher: string
  readonly outcome: string
  readonly passed: boolean
  readonly location: { file: string; line: number; column: number } | null
  readonly first_divergence: { dimension: string } | null
  readonly files: Record<string, string | null>
}

function readIndex(report: string) {
  return JSON.parse(readFileSync(path.join(report, 'index.json'), 'utf8')) as {
    runner: string
    totals: Record<string, number>
    entries: IndexEntry[]
  }
}

describe('rea-capture/jest-reporter with the real Jest CLI', () => {
  test('a passing and a failing capture produce the documented folder and GitHub output', async () => {
    const project = projectCopy()
    const report = path.join(project, 'rea-report')
    const stepSummary = path.join(project, 'step-summary.md')
    // Record the passing test's authority first; then the run under test is a CI run on GitHub Actions.
    const record = await jest(project, [])
    expect(record.code, record.stderr).toBe(0)
    const run = await jest(project, ['--ci'], {
      FIXTURE_FAIL: '1',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: stepSummary,
      GITHUB_WORKSPACE: project,
    })
    expect(run.code).toBe(1)

    const index = readIndex(report)
    expect(index.runner).toBe('jest')
    expect(index.totals).toMatchObject({ assertions: 3, tests: 2, matched: 2, different: 1, failed: 1 })
    const failing = index.entries.find((entry) => entry.test_file === 'differs.test.ts')!
    expect(failing).toMatchObject({ outcome: 'different', passed: false })
    expect(failing.first_divergence).toMatchObject({ dimension: 'terminal' })
    const line =
      readFileSync(path.join(project, 'differs.test.ts'), 'utf8')
        .split('\n')
        .findIndex((text) => text.includes('.toMatchCapture(')) + 1
    expect(failing.location).toMatchObject({ file: 'differs.test.ts', line })
    for (const entry of index.entries) {
      readEvidenceFileSync(path.join(report, entry.files['reconstruction']!))
    }
    readEvidenceFileSync(path.join(report, failing.files['authority_copy']!))
    const divergence = readFileSync(path.join(report, failing.files['divergence']!), 'utf8')
    expect(divergence).toContain('## First divergence')
    expect(divergence).toMatch(/^\+Good day, Ada!$/m)
    // The side files were collected and removed.
    expect(existsSync(path.join(report, '.records'))).toBe(false)

    expect(run.stderr).toMatch(
      /✗ differs\.test\.ts:\d+ greets the same way twice: screen checkpoint \d+ \([a-z ]+\), row 2: "Hello, Ada!" → "Good day, Ada!"/,
    )
    expect(run.stdout).toContain(`::error file=differs.test.ts,line=${line},`)
    expect(readFileSync(stepSummary, 'utf8')).toContain('greets the same way twice')
    // No JUnit reporter is configured: no attachment lines, and so no console entry with a frame into REA.
    expect(run.stdout + run.stderr).not.toContain('[[ATTACHMENT|')
  })

  test('a reporter that cannot write its folder warns and leaves the exit code alone', async () => {
    const project = projectCopy()
    const result = await jest(project, [
      '--reporters=default',
      `--reporters=${path.join(project, 'blocked-reporter.cjs')}`,
    ])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toContain('rea-capture/jest-reporter: no report this run')
  })
})
