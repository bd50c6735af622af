// The project's timing policy through the real Vitest CLI; vitest-obsolete.test.ts covers obsolete authority
// files in the same fixture project. Two files, so that a test worker can run each beside the other.
import { describe, expect, test } from 'vitest'
import { recordedVitestProjects, vitest } from '../helpers/vitest-obsolete-project.js'

const recorded = recordedVitestProjects()

describe('rea-capture/vitest timing policies through the real Vitest CLI', () => {
  test('a program three times slower passes by default and fails under strict; ignore still fails a changed output', async () => {
    const project = await recorded()
    // Only the slowed test runs: the project's `echo` captures are no subject here, and a stall of the loaded
    // machine while they were recorded (an exit moved by 655 ms once) would count as a difference.
    const slowed = ['greet.test.mjs', '-t', '^says hi$']
    // sleep 0.2 recorded; 0.6 s now, what a loaded runner does to the short program.
    const slow = await vitest(project, slowed, { CI: 'true', FIXTURE_DELAY: '0.6' })
    expect(slow.code, slow.stdout + slow.stderr).toBe(0)

    const strict = await vitest(project, slowed, {
      CI: 'true',
      FIXTURE_DELAY: '0.6',
      FIXTURE_TIMING: 'strict',
    })
    expect(strict.code).toBe(1)
    expect(strict.stdout + strict.stderr).toMatch(/the root exited at a different time at exit\.at_ms/)
    expect(strict.stdout + strict.stderr).toContain('timing          strict')

    const changed = await vitest(project, slowed, {
      CI: 'true',
      FIXTURE_DELAY: '0.6',
      FIXTURE_TIMING: 'ignore',
      FIXTURE_WORD: 'bye',
    })
    expect(changed.code).toBe(1)
    expect(changed.stdout + changed.stderr).toContain('+bye')

    const bad = await vitest(project, [], { FIXTURE_TIMING: 'fast' })
    expect(bad.code).toBe(1)
    expect(bad.stdout + bad.stderr).toContain('configureRea.timing: must be "tolerant", "strict", "ignore"')
  })
})
