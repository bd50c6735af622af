import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'
import { REPO_ROOT } from '../helpers/fixtures.js'

const run = promisify(execFile)

/** Runs a command as CI would: `CI` set, so no authority is written and the committed ones must match. */
async function asCi(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, {
      cwd: REPO_ROOT,
      env: { ...process.env, CI: 'true', NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
    })
    return { code: 0, output: stdout + stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, output: failed.stdout + failed.stderr }
  }
}

describe('the bundled examples, as CI runs them', () => {
  test(
    'examples/vitest matches its committed authorities, the rewrite included',
    { timeout: 120_000 },
    async () => {
      const result = await asCi([
        path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--root',
        'examples/vitest',
      ])
      expect(result.output).toMatch(/Tests\s+3 passed/)
      expect(result.output).not.toMatch(/Snapshots\s+[^\n]*(written|updated)/)
      // rea-capture/reporter's end-of-run line: nothing failed, nothing recorded in CI.
      expect(result.output).toMatch(
        /REA\s+\d+ capture assertions in 3 tests: \d+ matched, 0 different, 0 unknown, 0 not compared, 0 authorities written, 0 updated; 0 failed/,
      )
      expect(result.code, result.output).toBe(0)
    },
  )

  test('examples/jest matches its committed authority', { timeout: 120_000 }, async () => {
    const result = await asCi([
      path.join(REPO_ROOT, 'node_modules/jest/bin/jest.js'),
      '--config',
      'examples/jest/jest.config.cjs',
      '--ci',
    ])
    expect(result.output).toMatch(/Tests:\s+1 passed/)
    expect(result.code, result.output).toBe(0)
  })
})
