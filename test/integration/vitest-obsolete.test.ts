// Obsolete authority files through the real Vitest CLI; vitest-timing.test.ts covers the timing policy in the same
// fixture project. Two files, so that a test worker can run each beside the other.
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { obsoleteInIndex } from '../helpers/obsolete-project.js'
import { authorityOf, recordedVitestProjects, vitest } from '../helpers/vitest-obsolete-project.js'

const recorded = recordedVitestProjects()

describe('obsolete authority files through the real Vitest CLI', () => {
  // Obsolete files are the subject here, not times: on a loaded machine a stall once moved an exit of `echo` by
  // 574 ms, which the tolerant policy counts as a difference.
  const untimed = (project: string, args: string[], env: Record<string, string> = {}) =>
    vitest(project, args, { FIXTURE_TIMING: 'ignore', ...env })

  test('retries and repeats use their files, and shards merged report nothing of each other', async () => {
    const project = await recorded()
    const ci = await untimed(project, [], { CI: 'true' })
    expect(ci.code, ci.stdout + ci.stderr).toBe(0)
    expect(ci.stdout + ci.stderr).not.toContain('obsolete authority')
    expect(obsoleteInIndex(project)).toEqual([])

    const codes: number[] = []
    for (const shard of ['1/2', '2/2']) {
      const result = await untimed(
        project,
        [
          `--shard=${shard}`,
          '--reporter=default',
          '--reporter=rea-capture/reporter',
          // Written where this Vitest puts blob reports by default, and merged from there.
          '--reporter=blob',
        ],
        { CI: 'true' },
      )
      expect(result.stdout + result.stderr).not.toContain('obsolete authority')
      codes.push(result.code)
    }
    expect(codes).toEqual([0, 0])
    const merged = await untimed(project, ['--merge-reports', '--reporter=rea-capture/reporter'], {
      CI: 'true',
    })
    expect(merged.code, merged.stdout + merged.stderr).toBe(0)
    expect(obsoleteInIndex(project)).toEqual([])
  })

  test('a renamed test leaves a file a normal run reports, a filtered run does not, CI fails on and -u removes', async () => {
    const project = await recorded()
    const old = authorityOf('says hi')
    const rename = { FIXTURE_RENAME: '1' }

    const local = await untimed(project, [], rename)
    expect(local.code, local.stdout + local.stderr).toBe(0)
    expect(local.stdout).toContain(
      '1 obsolete authority file: no assertion of this run used it; `vitest -u` removes it',
    )
    expect(local.stdout).toContain(`↳ ${old}`)
    expect(obsoleteInIndex(project)).toEqual([
      { path: old, test_file: 'greet.test.mjs', reason: 'unused', removed: false },
    ])
    expect(readFileSync(path.join(project, 'rea-report/summary.md'), 'utf8')).toContain(
      '### Obsolete authority files',
    )

    // A run that leaves tests out proves nothing about their files.
    const filtered = await untimed(project, ['-t', 'counts'], { ...rename, CI: 'true' })
    expect(filtered.code, filtered.stdout + filtered.stderr).toBe(0)
    expect(filtered.stdout + filtered.stderr).not.toContain('obsolete authority')
    const only = await untimed(project, [], { ...rename, FIXTURE_ONLY: '1' })
    expect(only.code, only.stdout + only.stderr).toBe(0)
    expect(only.stdout + only.stderr).not.toContain('obsolete authority')
    const subset = await untimed(project, ['again.test.mjs'], { ...rename, CI: 'true' })
    expect(subset.code).toBe(0)
    expect(subset.stdout + subset.stderr).not.toContain('obsolete authority')

    const ci = await untimed(project, [], { ...rename, CI: 'true' })
    expect(ci.code).toBe(1)
    expect(ci.stdout + ci.stderr).toContain(
      '1 obsolete authority file found when no update is expected (a CI run): no assertion of this run used it.',
    )
    expect(ci.stdout + ci.stderr).toContain(`· ${old}`)
    expect(ci.stdout + ci.stderr).toContain('Remove it with `vitest -u`')
    // Vitest's own summary counts it: the test file failed, and no frame of REA's built files is shown.
    expect(ci.stdout).toMatch(/Test Files\s+1 failed/)
    expect(ci.stdout + ci.stderr).not.toMatch(/node_modules\/rea-capture\/dist|\/dist\/(matchers|reporter)/)

    // Without rea-capture/reporter, the setup entry finds the test file's obsolete authority itself; -u removes it.
    const alone = await untimed(project, ['-u', '--reporter=default'], rename)
    expect(alone.code).toBe(0)
    expect(alone.stderr).toContain(
      'rea: greet.test.mjs: 1 obsolete authority file: no test of this file used it; removed.',
    )
    expect(existsSync(path.join(project, old))).toBe(false)
    expect(existsSync(path.join(project, authorityOf('greets')))).toBe(true)
    expect((await untimed(project, [], { ...rename, CI: 'true' })).code).toBe(0)
  })

  test('a deleted test file’s folder is reported by a run of the whole project, counted by CI and removed with -u', async () => {
    const project = await recorded()
    const captures = path.join(project, '__captures__')
    cpSync(path.join(captures, 'greet.test.mjs'), path.join(captures, 'deleted.test.mjs'), {
      recursive: true,
    })
    const sharded = await untimed(project, ['--shard=1/2'], { CI: 'true' })
    expect(sharded.stdout + sharded.stderr).not.toContain('deleted.test.mjs')
    // A run filtered by test name proves nothing about the project's files, whichever files it loads.
    const filtered = await untimed(project, ['-t', 'counts'], { CI: 'true' })
    expect(filtered.code, filtered.stdout + filtered.stderr).toBe(0)
    expect(filtered.stdout + filtered.stderr).not.toContain('deleted.test.mjs')

    // CI: every test file passes, and Vitest's own summary still counts the failure (an error), naming the files
    // and `vitest -u`, without a frame of REA's built files; the reporter does not say it a second time.
    const ci = await untimed(project, [], { CI: 'true' })
    const output = ci.stdout + ci.stderr
    expect(ci.code, output).toBe(1)
    expect(ci.stdout).toMatch(/Test Files\s+2 passed/)
    expect(ci.stdout).toMatch(/Errors\s+1 error/)
    expect(output).toContain(
      '2 obsolete authority files found when no update is expected (a CI run): no assertion of this run used them.',
    )
    expect(output).toMatch(
      /· __captures__\/deleted\.test\.mjs\/says hi 1-[0-9a-f]{8}\.capture\.json \(its test file is gone\)/,
    )
    expect(output).toContain('Remove them with `vitest -u`')
    expect(output.split('found when no update is expected').length - 1).toBe(1)
    expect(output).not.toMatch(/node_modules\/rea-capture\/dist|\/dist\/(matchers|reporter)/)
    // With no Vitest console reporter to print the run's errors, rea-capture/reporter says it itself.
    const alone = await untimed(project, ['--reporter=rea-capture/reporter'], { CI: 'true' })
    expect(alone.code, alone.stdout + alone.stderr).toBe(1)
    expect(alone.stdout + alone.stderr).toContain(
      '2 obsolete authority files found when no update is expected (a CI run)',
    )

    const local = await untimed(project, [])
    expect(local.code).toBe(0)
    expect(local.stdout).toContain('2 obsolete authority files')
    expect(local.stdout).toMatch(
      /↳ __captures__\/deleted\.test\.mjs\/says hi 1-[0-9a-f]{8}\.capture\.json \(its test file is gone\)/,
    )
    expect(obsoleteInIndex(project).map((entry) => entry.reason)).toEqual([
      'test_file_deleted',
      'test_file_deleted',
    ])

    expect((await untimed(project, ['-u'])).code).toBe(0)
    expect(readdirSync(captures).sort()).toEqual(['again.test.mjs', 'greet.test.mjs'])
  })
})
