import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { pathInside, toPosix } from '../../../src/internal/path-inside.js'
import { relativePosix } from '../../../src/internal/relative-posix.js'

describe('pathInside', () => {
  test.each([
    ['/repo', '/repo', ''],
    ['/repo', '/repo/src/a.ts', 'src/a.ts'],
    // A folder whose name starts with two dots is still inside.
    ['/repo', '/repo/..cache/x', '..cache/x'],
    ['/repo', '/repo/..', null],
    ['/repo', '/other/a.ts', null],
    ['/repo', '/repo-2/a.ts', null],
  ])('%s and %s give %j', (root, file, expected) => {
    expect(pathInside(root, file, path.posix)).toBe(expected)
  })

  test('reads Windows paths in their own flavour', () => {
    expect(pathInside('C:\\repo', 'C:\\repo\\..cache\\a.txt', path.win32)).toBe('..cache/a.txt')
    expect(pathInside('C:\\repo', 'D:\\a.txt', path.win32)).toBeNull()
    expect(toPosix('C:\\repo\\a', path.win32)).toBe('C:/repo/a')
  })
})

describe('relativePosix', () => {
  test('keeps a file in a ..cache folder relative, and a file outside absolute', () => {
    expect(relativePosix('/repo', '/repo/..cache/a.json')).toBe('..cache/a.json')
    expect(relativePosix('/repo', '/elsewhere/a.json')).toBe('/elsewhere/a.json')
  })
})
