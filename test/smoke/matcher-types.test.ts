import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, test } from 'vitest'
import { REPO_ROOT } from '../helpers/fixtures.js'
import { OTHER_VITEST, VITEST_MAJOR, VITEST_MODULES } from '../helpers/vitest-under-test.js'

const run = promisify(execFile)

// The `types` project checks test/types/matchers.test-d.ts against this checkout's Vitest (4). CI's runner matrix
// names Vitest 5 in REA_TEST_VITEST_MODULES, and this file checks the same tests, positive and `@ts-expect-error`
// negative, against it: REA's sources with `vitest` resolved to that package's declarations.
const folder = mkdtempSync(path.join(tmpdir(), 'rea-matcher-types-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe(`the matcher typings against Vitest ${VITEST_MAJOR}`, () => {
  if (!OTHER_VITEST) {
    console.log(
      'REA_TEST_VITEST_MODULES names no other Vitest: the types project checks the matcher typings against this checkout’s.',
    )
  }

  test.skipIf(!OTHER_VITEST)('test/types/matchers.test-d.ts type-checks', { timeout: 180_000 }, async () => {
    const declarations = path.join(VITEST_MODULES, 'vitest/dist/index.d.ts')
    const config = path.join(folder, 'tsconfig.json')
    writeFileSync(
      config,
      JSON.stringify({
        extends: path.join(REPO_ROOT, 'tsconfig.json'),
        compilerOptions: {
          typeRoots: [path.join(REPO_ROOT, 'node_modules/@types')],
          paths: {
            '@xterm/xterm': [path.join(REPO_ROOT, 'src/view/xterm-browser.d.ts')],
            vitest: [declarations],
          },
        },
        include: [path.join(REPO_ROOT, 'test/types/matchers.test-d.ts')],
        exclude: [],
      }),
    )
    const tsc = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc')
    const { stdout } = await run(process.execPath, [tsc, '-p', config, '--listFiles'], {
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: unknown) => {
      const failed = error as { stdout?: string }
      throw new Error(`tsc found errors:\n${failed.stdout ?? String(error)}`)
    })
    // The declarations checked are that Vitest's, and none of this checkout's.
    const files = stdout.split('\n')
    expect(files).toContain(declarations)
    expect(files.filter((file) => file.startsWith(path.join(REPO_ROOT, 'node_modules/vitest/')))).toEqual([])
  })
})
