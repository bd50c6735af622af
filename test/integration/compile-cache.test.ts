import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import module from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { runCli } from '../helpers/run-cli.js'

// Node's compile cache exists from Node 22.1; on Node 20 `rea` compiles its bundles on every run. CI runs this file
// on Node 24 too (.ci/runner-matrix).
const hasCompileCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function'
const folder = mkdtempSync(path.join(tmpdir(), 'rea-compile-cache-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** `rea schema scenario` (a command that loads the engine's bundle) with TMPDIR set to `temporary`. */
async function reaWithTemporaryDirectory(temporary: string) {
  const { NODE_COMPILE_CACHE: _chosen, NODE_DISABLE_COMPILE_CACHE: _off, ...env } = process.env
  const result = await runCli(['schema', 'scenario'], { env: { ...env, TMPDIR: temporary } })
  expect(result.code, result.stderr).toBe(0)
}

describe(`rea's compile cache (Node ${process.versions.node})`, () => {
  test('creates no folder when the temporary directory does not exist', async () => {
    const missing = path.join(folder, 'missing/deeper')
    await reaWithTemporaryDirectory(missing)
    expect(existsSync(path.join(folder, 'missing'))).toBe(false)
  })

  test.skipIf(!hasCompileCache)(
    "keeps Node's compile cache in Node's own folder of an existing temporary directory",
    async () => {
      const existing = path.join(folder, 'existing')
      mkdirSync(existing)
      await reaWithTemporaryDirectory(existing)
      expect(readdirSync(existing)).toEqual(['node-compile-cache'])
      expect(readdirSync(path.join(existing, 'node-compile-cache'))).toHaveLength(1)
    },
  )
  if (!hasCompileCache) {
    console.log(`Node ${process.versions.node} has no compile cache: the test of its folder is skipped.`)
  }
})
