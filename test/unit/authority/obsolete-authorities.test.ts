import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { authorityPathFor, isAuthorityOf } from '../../../src/authority/authority-path.js'
import { readCaptureFolders, removeAuthorityFiles } from '../../../src/authority/capture-folders.js'
import {
  findObsoleteAuthorities,
  type CaptureFolder,
  type TestFileRun,
} from '../../../src/authority/obsolete-authorities.js'
import { checkObsoleteAuthorities } from '../../../src/authority/obsolete-check.js'
import { deletedTestFileFailures } from '../../../src/runner/deleted-test-files.js'

const TEST_FILE = '/p/cli.test.ts'
const file = (name: string, assertion = 1) => authorityPathFor(TEST_FILE, name, assertion)
const folder = (files: string[], testFile = TEST_FILE, exists = true): CaptureFolder => ({
  testFile,
  testFileExists: exists,
  files,
})
const run = (
  tests: [string, boolean][],
  used: string[] | null = [],
  overrides: Partial<TestFileRun> = {},
): TestFileRun => ({
  testFile: TEST_FILE,
  tests: tests.map(([name, complete]) => ({ name, complete })),
  used,
  broken: false,
  ...overrides,
})
const obsolete = (runs: TestFileRun[], folders: CaptureFolder[], wholeProject = false) =>
  findObsoleteAuthorities({ runs, folders, wholeProject }).map((entry) => [
    path.basename(entry.file),
    entry.reason,
  ])

describe('findObsoleteAuthorities', () => {
  test('a file no assertion used is obsolete when every test of its file ran to its end', () => {
    const files = [file('greets'), file('old name'), '/p/__captures__/cli.test.ts/login.capture.json']
    expect(obsolete([run([['greets', true]], [file('greets')])], [folder(files)])).toEqual([
      [path.basename(file('old name')), 'unused'],
    ])
  })

  test('explicit-path authorities, named by the user, are never candidates', () => {
    const explicit = '/p/__captures__/cli.test.ts/login.capture.json'
    expect(obsolete([run([['greets', true]])], [folder([explicit])])).toEqual([])
  })

  test('a skipped, filtered or failed test keeps every file, except those proven to belong to a test that ran', () => {
    const files = [file('renamed'), file('skipped'), file('ran', 1), file('ran', 2)]
    const runs = [
      run(
        [
          ['ran', true],
          ['skipped', false],
        ],
        [file('ran', 1)],
      ),
    ]
    // `ran 2`: its test ran to the end and did not assert twice; `renamed` may be any test that did not run.
    expect(obsolete(runs, [folder(files)])).toEqual([[path.basename(file('ran', 2)), 'unused']])
  })

  test('a name shared by a test that did not finish proves nothing', () => {
    const runs = [
      run([
        ['twice', true],
        ['twice', false],
      ]),
    ]
    expect(obsolete(runs, [folder([file('twice', 3)])])).toEqual([])
  })

  test('nothing is proven without the used files, in a broken file, or in a file without tests', () => {
    const files = [file('old')]
    expect(obsolete([run([['greets', true]], null)], [folder(files)])).toEqual([])
    expect(obsolete([run([['greets', true]], [], { broken: true })], [folder(files)])).toEqual([])
    expect(obsolete([run([])], [folder(files)])).toEqual([])
  })

  test('runs of one file in several projects add up: used anywhere is used', () => {
    const files = [file('a'), file('b')]
    const runs = [run([['a', true]], [file('a')]), run([['b', true]], [file('b')])]
    expect(obsolete(runs, [folder(files)])).toEqual([])
    expect(obsolete([...runs, run([['a', true]], null)], [folder(files)])).toEqual([])
  })

  test('a deleted test file’s folder is obsolete only in a run of the whole project', () => {
    const gone = folder([authorityPathFor('/p/gone.test.ts', 'x', 1)], '/p/gone.test.ts', false)
    expect(obsolete([], [gone], true)).toEqual([[path.basename(gone.files[0]!), 'test_file_deleted']])
    expect(obsolete([], [gone], false)).toEqual([])
    expect(obsolete([], [{ ...gone, testFileExists: true }], true)).toEqual([])
    expect(obsolete([], [{ ...gone, testFile: '/p/notes' }], true)).toEqual([])
  })
})

describe('isAuthorityOf', () => {
  test('recomputes the whole name; a cut name proves nothing', () => {
    expect(isAuthorityOf(path.basename(file('greets', 12)), 'greets')).toBe(true)
    expect(isAuthorityOf(path.basename(file('greets', 12)), 'greet')).toBe(false)
    const long = 'x'.repeat(200)
    expect(isAuthorityOf(path.basename(file(long, 1)), long)).toBe(false)
  })
})

describe('the capture folders on disk', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'rea-obsolete-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  const write = (file: string) => {
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, '{}')
  }

  test('lists the folders next to test files, removes obsolete files with -u and the folders left empty', () => {
    const testFile = path.join(root, 'a.test.ts')
    writeFileSync(testFile, '')
    const kept = authorityPathFor(testFile, 'kept', 1)
    const old = authorityPathFor(testFile, 'old', 1)
    const orphan = authorityPathFor(path.join(root, 'gone.test.ts'), 'x', 1)
    for (const name of [kept, old, orphan]) {
      write(name)
    }
    expect(readCaptureFolders([testFile]).map((entry) => [entry.testFile, entry.testFileExists])).toEqual([
      [testFile, true],
      [path.join(root, 'gone.test.ts'), false],
    ])
    const runs = [
      {
        testFile,
        tests: [{ name: 'kept', complete: true }],
        used: [kept],
        broken: false,
      },
    ]
    const request = { runs, wholeProject: true, updateCommand: 'vitest -u', root }
    const ci = checkObsoleteAuthorities({ ...request, updateMode: 'none' })
    expect(ci.files.map((entry) => [entry.file, entry.removed])).toEqual([
      [old, false],
      [orphan, false],
    ])
    expect(ci.failure).toContain('2 obsolete authority files found when no update is expected')
    expect(ci.failure).toContain('__captures__/gone.test.ts/x 1-')
    expect(ci.failure).toContain('(its test file is gone)')
    expect(ci.failure).toContain('`vitest -u`')
    expect(checkObsoleteAuthorities({ ...request, updateMode: 'new' }).failure).toBeNull()
    expect(existsSync(old)).toBe(true)

    // A failure the runner already counted and showed is listed, not said again.
    const counted = checkObsoleteAuthorities({ ...request, updateMode: 'none', counted: new Set([orphan]) })
    expect(counted.files.map((entry) => entry.file)).toEqual([old, orphan])
    expect(counted.failure).toContain('1 obsolete authority file found when no update is expected')
    expect(counted.failure).not.toContain('gone.test.ts')
    expect(
      checkObsoleteAuthorities({ ...request, updateMode: 'none', counted: new Set([old, orphan]) }).failure,
    ).toBeNull()

    // Before any test ends, a CI run of the whole project fails once per deleted test file, and only then.
    const early = { testFiles: [testFile], wholeProject: true, updateCommand: 'vitest -u', root }
    const failures = deletedTestFileFailures({ ...early, updateMode: 'none' })
    expect(failures.map((failure) => [failure.testFile, failure.files])).toEqual([
      [path.join(root, 'gone.test.ts'), [orphan]],
    ])
    expect(failures[0]?.error.message).toContain('__captures__/gone.test.ts/x 1-')
    expect(failures[0]?.error.message).toContain('`vitest -u`')
    // The stack is the message alone: no frame into REA's files.
    expect(failures[0]?.error.stack).toBe(`ObsoleteAuthorities: ${failures[0]?.error.message}`)
    expect(deletedTestFileFailures({ ...early, updateMode: 'new' })).toEqual([])
    expect(deletedTestFileFailures({ ...early, updateMode: 'all' })).toEqual([])
    expect(deletedTestFileFailures({ ...early, updateMode: 'none', wholeProject: false })).toEqual([])

    const updated = checkObsoleteAuthorities({ ...request, updateMode: 'all' })
    expect(updated.files.every((entry) => entry.removed)).toBe(true)
    expect([existsSync(old), existsSync(kept), existsSync(path.dirname(orphan))]).toEqual([
      false,
      true,
      false,
    ])
  })

  test('refuses to remove anything outside a __captures__/<file>/ folder', () => {
    const stray = path.join(root, 'stray.capture.json')
    write(stray)
    expect(removeAuthorityFiles([stray])).toEqual({
      removed: [],
      failed: [{ file: stray, code: 'not in a __captures__ folder' }],
    })
    expect(existsSync(stray)).toBe(true)
  })
})
