import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { CLI, runCli } from '../helpers/run-cli.js'

/**
 * The project's own documentation as Markdown cases (issue 52's dogfood): the console blocks of README.md,
 * docs/cli.md and docs/markdown-cases.md run through `rea test` as a user's CI would run them, with `rea` on PATH
 * as an install puts it there. A changed message in the CLI, or a format example that no longer holds, fails here.
 */

const bin = mkdtempSync(path.join(tmpdir(), 'rea-docs-bin-'))
afterAll(() => rmSync(bin, { recursive: true, force: true }))
writeFileSync(path.join(bin, 'rea'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`)
chmodSync(path.join(bin, 'rea'), 0o755)

/** The sensitive-input example of docs/markdown-cases.md types this and prints its length. */
const DOCS_PASSWORD = 'thirteen-char'

test('the console blocks of README.md, docs/cli.md and docs/markdown-cases.md hold', async () => {
  const result = await runCli(
    ['test', 'README.md', 'docs/cli.md', 'docs/markdown-cases.md', '--no-report', '--jobs', '1'],
    { env: { PATH: `${bin}:${process.env['PATH'] ?? ''}`, DOCS_PASSWORD, CI: '1' } },
  )
  expect(result.stdout, result.stdout + result.stderr).toMatch(
    / REA {2}\d+ blocks in 3 files: \d+ passed, 0 failed, 0 unknown, 0 invalid, 0 ignored/,
  )
  expect(result.stdout).toMatch(/PASS {2}README\.md/)
  expect(result.stdout).toMatch(/PASS {2}docs\/cli\.md/)
  expect(result.stdout).toMatch(/PASS {2}docs\/markdown-cases\.md/)
  expect(result.code).toBe(0)
})
