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
  test.for(['index', 'vitest', 'jest', 'reporter', 'jest-reporter'])(
    'of dist/%s.d.ts matches test/api/',
    async (entry) => {
      await expect(publicDeclarations(DIST, entry)).toMatchFileSnapshot(`../api/${entry}.api.md`)
    },
  )
})
