import { appendFileSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { publicDeclarations } from '../helpers/public-api.js'

const DIST = path.resolve(import.meta.dirname, '../../dist')

/**
 * The public API of every entry the package exports, held to the snapshot committed under test/api/: any change
 * to a declaration users can see (an added export, a changed field, a removed type) fails here until the snapshot
 * is updated with `-u` and the diff is reviewed with the change.
 */
describe('the public API', () => {
  test.for(['index', 'vitest', 'jest', 'reporter', 'jest-reporter', 'vitest-markdown', 'jest-markdown'])(
    'of dist/%s.d.ts matches test/api/',
    async (entry) => {
      await expect(publicDeclarations(DIST, entry)).toMatchFileSnapshot(`../api/${entry}.api.md`)
    },
  )
})

describe('the API snapshot', () => {
  test('fails on an export added to a build', () => {
    const copy = mkdtempSync(path.join(tmpdir(), 'rea-api-'))
    try {
      for (const name of readdirSync(DIST).filter((file) => file.endsWith('.d.ts'))) {
        copyFileSync(path.join(DIST, name), path.join(copy, name))
      }
      appendFileSync(path.join(copy, 'index.d.ts'), '\nexport declare function addedForTheTest(): void\n')
      const committed = readFileSync(path.resolve(import.meta.dirname, '../api/index.api.md'), 'utf8')
      const declarations = publicDeclarations(copy, 'index')
      expect(declarations).toContain('export addedForTheTest (FunctionDeclaration)')
      expect(declarations).not.toBe(committed)
    } finally {
      rmSync(copy, { recursive: true, force: true })
    }
  })
})
