import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'
import { fixtureProjects } from '../helpers/fixture-project.js'
import { program, REPO_ROOT } from '../helpers/fixtures.js'

const run = promisify(execFile)
const RUNNER = path.join(REPO_ROOT, 'test/helpers/run-vitest-project.mjs')
const projectCopy = fixtureProjects('vitest-screens')

interface ProjectRun {
  readonly tests: { name: string; state: string; errors: string[] }[]
  readonly snapshot: { added: number; matched: number; unmatched: number }
}

async function runProject(project: string, env: Record<string, string> = {}): Promise<ProjectRun> {
  const { CI: _ci, ...inherited } = process.env
  const { stdout } = await run(process.execPath, [RUNNER, project, '1', 'false'], {
    cwd: project,
    env: { ...inherited, FIXTURE_PROGRAM: program('random-draw.mjs'), ...env },
    maxBuffer: 64 * 1024 * 1024,
  })
  return JSON.parse(stdout.split('\n').find((line) => line.startsWith('{')) ?? '{}') as ProjectRun
}

const outcome = (result: ProjectRun, name: string) => result.tests.find((entry) => entry.name === name)

describe('toMatchCapture({ terminal: "screens" }) in a real Vitest project', () => {
  test(
    'holds for a program that redraws in another order, where the stream comparison fails and names the option',
    { timeout: 240_000 },
    async () => {
      const project = projectCopy()
      const first = await runProject(project)
      expect(first.snapshot.added).toBe(2)
      const second = await runProject(project)
      expect(outcome(second, 'compared by screens')).toMatchObject({ state: 'passed', errors: [] })
      const stream = outcome(second, 'compared by stream')
      expect(stream?.state).toBe('failed')
      const message = stream?.errors.join('\n') ?? ''
      expect(message).toContain('Screens hint: every checkpoint screen is equal')
      expect(message).toContain("To compare what the screens show, use { terminal: 'screens' }")
      // The same project with configureRea({ terminal: 'screens' }) in its setup file.
      const configured = await runProject(project, { FIXTURE_SCREENS: '1' })
      expect(configured.tests.map((entry) => [entry.name, entry.state, entry.errors])).toEqual([
        ['compared by screens', 'passed', []],
        ['compared by stream', 'passed', []],
      ])
    },
  )
})
