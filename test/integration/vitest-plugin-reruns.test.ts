import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { parseEvidenceText } from '../../src/front-end.js'
import { fixtureProjects, matchWithoutTimes } from '../helpers/fixture-project.js'
import { AUTHORITY, greeting, runProject } from '../helpers/vitest-project-run.js'

// The rest of rea-capture/vitest in a real project is in vitest-plugin.test.ts; this test is a file of its own, the
// longest of them, so that a test worker runs it beside the others.

/** A copy of the fixture project with `rea-capture` (this repository's built package) installed. */
const projectCopy = fixtureProjects('vitest-basic')

describe('rea-capture/vitest in a real Vitest project, run after run', () => {
  test(
    'records the authority on the first run, then matches it 20 times out of 20',
    { timeout: 240_000 },
    async () => {
      const project = projectCopy()
      // A stall of the loaded machine once moved the root's exit by 756 ms (68 against 824 ms after the input).
      matchWithoutTimes(path.join(project, 'greet.test.mjs'))
      const [first] = await runProject(project)
      expect(greeting(first!)).toMatchObject({ state: 'passed' })
      expect(first!.snapshot).toMatchObject({ added: 1, matched: 0 })
      const authority = parseEvidenceText(readFileSync(path.join(project, AUTHORITY), 'utf8'))
      expect(authority.terminal.chunks.map((chunk) => chunk.data).join('')).toContain('Hello, Ada!')

      // One Vitest start, then 19 reruns of the file as watch mode reruns it: each in a fresh worker. Only the
      // test whose authority is matched runs: the file's other test and file cost as much again.
      const reruns = await runProject(project, {
        times: 20,
        only: { file: 'greet.test.mjs', name: '^greets the user$' },
      })
      expect(reruns).toHaveLength(20)
      expect(reruns.map((result) => [greeting(result).state, greeting(result).errors])).toEqual(
        Array.from({ length: 20 }, () => ['passed', []]),
      )
      // The other tests were left out, not run.
      expect(
        reruns.every((result) =>
          result.tests.every((entry) => entry === greeting(result) || entry.state === 'skipped'),
        ),
      ).toBe(true)
      expect(reruns.every((result) => result.snapshot.matched === 1 && result.snapshot.added === 0)).toBe(
        true,
      )
    },
  )
})
