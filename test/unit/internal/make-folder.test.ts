import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { makeFolder } from '../../../src/internal/make-folder.js'

const scratch = mkdtempSync(path.join(tmpdir(), 'rea-make-folder-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('makeFolder', () => {
  test('creates a folder with its missing parents, and accepts one that exists', () => {
    const folder = path.join(scratch, 'a', 'b', 'c')
    makeFolder(folder)
    makeFolder(folder)
    expect(statSync(folder).isDirectory()).toBe(true)
  })

  // Where creating is refused with ENOENT (/proc), Node 20's recursive mkdir loops forever: that case is checked
  // through the CLI, in a process with a hang guard (test/integration/coverage-capture.test.ts).
  test('ends with the system’s error where a file is in the way', () => {
    const file = path.join(scratch, 'file')
    writeFileSync(file, '')
    expect(() => makeFolder(file)).toThrow(expect.objectContaining({ code: 'EEXIST' }))
    expect(() => makeFolder(path.join(file, 'below'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }))
  })
})
