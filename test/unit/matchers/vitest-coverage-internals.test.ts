import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, test } from 'vitest'
import { REPO_ROOT } from '../../helpers/fixtures.js'

/*
 * What matchers/vitest/coverage.ts relies on inside Vitest and @vitest/coverage-v8 to put the programs run inside
 * captures into Vitest's v8 coverage report. None of it is public API: each check names the internal it pins, so
 * an upgrade that moves one fails here, by name, before users see programs reported as never run. The end-to-end
 * proof is test/integration/coverage-vitest.test.ts.
 */

// The Vitest REA's runner tests drive: this checkout's, or another major's named by REA_TEST_VITEST_MODULES.
const modules = path.resolve(process.env['REA_TEST_VITEST_MODULES'] || path.join(REPO_ROOT, 'node_modules'))
const vitestFolder = path.join(modules, 'vitest')
const providerFile = createRequire(path.join(vitestFolder, 'package.json')).resolve('@vitest/coverage-v8')

function distText(folder: string): string {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.js'))
    .map((name) => readFileSync(path.join(folder, name), 'utf8'))
    .join('\n')
}

describe("Vitest's coverage internals that rea-capture/vitest uses", () => {
  test("each pool's worker runs <vitest>/dist/workers/<pool>.js, which tells REA which Vitest is running", () => {
    for (const pool of ['forks', 'threads', 'vmForks', 'vmThreads']) {
      expect(existsSync(path.join(vitestFolder, 'dist/workers', `${pool}.js`)), pool).toBe(true)
    }
    expect(process.argv[1], "this worker's script").toMatch(/[/\\]dist[/\\]workers[/\\][^/\\]+\.js$/)
  })

  test('the worker imports @vitest/coverage-v8 by its bare name, so it resolves from Vitest’s folder', () => {
    expect(distText(path.join(vitestFolder, 'dist'))).toContain('v8: "@vitest/coverage-v8"')
  })

  test('the worker calls takeCoverage through the module object on every call, so a wrapper put there runs', () => {
    expect(distText(path.join(vitestFolder, 'dist'))).toMatch(/coverageModule\.takeCoverage\?\.\(/)
  })

  test("@vitest/coverage-v8's default export is an object whose takeCoverage can be replaced", async () => {
    const provider = ((await import(pathToFileURL(providerFile).href)) as { default?: object }).default
    expect(provider, 'the default export').toBeTypeOf('object')
    const property = Object.getOwnPropertyDescriptor(provider, 'takeCoverage')
    expect(property?.value, 'takeCoverage').toBeTypeOf('function')
    expect(property?.writable, 'takeCoverage is writable').toBe(true)
  })

  test('the provider reads a file from disk when Vite cannot load its id (file://localhost/<path>)', () => {
    const provider = distText(path.dirname(providerFile))
    expect(provider).toMatch(/onTransform\(filepath[^)]*\)\.catch\(\(\) => null\)/)
    expect(provider).toContain('readFile(filePath, "utf-8")')
  })

  test("the worker's configuration carries the coverage options (enabled, provider, reportsDirectory)", () => {
    const worker = (globalThis as { __vitest_worker__?: { config?: { coverage?: object } } })
      .__vitest_worker__
    expect(worker?.config?.coverage, '__vitest_worker__.config.coverage').toMatchObject({
      enabled: false,
      provider: 'v8',
      reportsDirectory: expect.any(String) as unknown,
    })
  })
})
