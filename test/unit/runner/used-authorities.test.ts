import { describe, expect, test } from 'vitest'
import { UsedAuthorities } from '../../../src/runner/used-authorities.js'

describe('UsedAuthorities', () => {
  test('gives the files each test file used, sorted and once each', () => {
    const used = new UsedAuthorities()
    used.add('/r/a.test.ts', '/r/__captures__/a.test.ts/b 1-x.capture.json')
    used.add('/r/a.test.ts', '/r/__captures__/a.test.ts/a 1-x.capture.json')
    used.add('/r/a.test.ts', '/r/__captures__/a.test.ts/b 1-x.capture.json')
    used.add('/r/b.test.ts', '/r/__captures__/b.test.ts/c 1-x.capture.json')
    expect(used.of('/r/a.test.ts')).toEqual([
      '/r/__captures__/a.test.ts/a 1-x.capture.json',
      '/r/__captures__/a.test.ts/b 1-x.capture.json',
    ])
    expect(used.of('/r/c.test.ts')).toEqual([])
  })
})
