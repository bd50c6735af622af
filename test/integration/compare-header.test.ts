import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { captureProcess, serializeEvidence } from '../../src/index.js'
import { runCli } from '../helpers/run-cli.js'

const directory = mkdtempSync(path.join(tmpdir(), 'rea-compare-header-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

test('compare-process-captures shows an argument holding a newline escaped, and quotes the row that changed', async () => {
  const files = await Promise.all(
    ['Hello, Ada!', 'Hello, Bob!'].map(async (greeting, index) => {
      const evidence = await captureProcess({
        executable: '/bin/sh',
        arguments: ['-c', `printf '%s\\n' "$1"`, 'line one\nline two', greeting],
        timeout_ms: 20_000,
      })
      const file = path.join(directory, `side ${index}.json`)
      writeFileSync(file, serializeEvidence(evidence))
      return file
    }),
  )
  const result = await runCli(['compare-process-captures', ...files, '--format', 'text'])
  expect(result.code, result.stderr).toBe(1)
  const lines = result.stdout.split('\n')
  const authority = lines.find((line) => line.startsWith('  authority '))
  expect(authority).toContain('"line one\\nline two"')
  expect(lines.some((line) => line.startsWith('line two'))).toBe(false)
  expect(result.stdout).toContain(
    'screen          checkpoint 0 (final), row 1: "Hello, Ada!" → "Hello, Bob!"',
  )
})
