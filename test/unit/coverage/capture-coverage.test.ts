import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { CaptureCoverage } from '../../../src/coverage/capture-coverage.js'
import { isReaError } from '../../../src/errors.js'

const scratch = mkdtempSync(path.join(tmpdir(), 'rea-capture-coverage-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let folders = 0
const fresh = () => path.join(scratch, `folder-${folders++}`)

/** Writes into the private folder as a Node.js process of the capture would. */
function writeAsProgram(coverage: CaptureCoverage, name: string): void {
  writeFileSync(path.join(coverage.environment['NODE_V8_COVERAGE'] as string, name), '{"result":[]}')
}

describe('CaptureCoverage', () => {
  test('points NODE_V8_COVERAGE at a private folder inside the one asked for, created with its parents', () => {
    const folder = path.join(fresh(), 'nested', 'deeper')
    const coverage = CaptureCoverage.prepare({ directory: folder }, scratch)
    const variable = coverage.environment['NODE_V8_COVERAGE'] as string
    expect(Object.keys(coverage.environment)).toEqual(['NODE_V8_COVERAGE'])
    expect(path.dirname(variable)).toBe(folder)
    expect(path.basename(variable)).toMatch(/^\.rea-capture-/)
    coverage.finish()
  })

  test('resolves a relative folder against the capture root', () => {
    const coverage = CaptureCoverage.prepare({ directory: 'relative-coverage' }, scratch)
    expect(path.dirname(coverage.environment['NODE_V8_COVERAGE'] as string)).toBe(
      path.join(scratch, 'relative-coverage'),
    )
    coverage.finish()
  })

  test('moves the coverage files up when the capture is over, counts them once, and removes its folder', () => {
    const folder = fresh()
    const coverage = CaptureCoverage.prepare({ directory: folder }, scratch)
    writeAsProgram(coverage, 'coverage-1-2-0.json')
    writeAsProgram(coverage, 'coverage-3-4-0.json')
    writeFileSync(path.join(coverage.environment['NODE_V8_COVERAGE'] as string, 'not-coverage.txt'), '')
    expect(coverage.finish()).toBe(2)
    expect(readdirSync(folder).sort()).toEqual(['coverage-1-2-0.json', 'coverage-3-4-0.json'])
    // Repeated (the capture's own finish, then captureProcess's safety net): the first count.
    expect(coverage.finish()).toBe(2)
  })

  test('counts 0 when no process wrote, and null when its folder was removed from outside', () => {
    const none = CaptureCoverage.prepare({ directory: fresh() }, scratch)
    expect(none.finish()).toBe(0)
    const folder = fresh()
    const removed = CaptureCoverage.prepare({ directory: folder }, scratch)
    rmSync(folder, { recursive: true })
    expect(removed.finish()).toBeNull()
  })

  test.each([
    ['a file in the way', () => path.join(writtenFile(), 'below')],
    ['an empty path', () => ''],
  ])('refuses %s as an invalid argument naming coverage.directory', (_, directory) => {
    let thrown: unknown
    try {
      CaptureCoverage.prepare({ directory: directory() }, scratch)
    } catch (error) {
      thrown = error
    }
    expect(isReaError(thrown) && thrown.code).toBe('INVALID_ARGUMENTS')
    expect(isReaError(thrown) && thrown.issues[0]?.path).toBe('coverage.directory')
  })
})

function writtenFile(): string {
  const file = fresh()
  writeFileSync(file, '')
  return file
}
