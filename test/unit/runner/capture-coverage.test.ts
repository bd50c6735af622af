import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, test, vi } from 'vitest'
import { takeCapturedScripts, workerCoverageFolder } from '../../../src/runner/capture-coverage.js'

const scratch = mkdtempSync(path.join(tmpdir(), 'rea-runner-coverage-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('workerCoverageFolder', () => {
  test('names a folder of its own for each call, inside the parent', () => {
    const first = workerCoverageFolder('/parent')
    expect(path.dirname(first)).toBe('/parent')
    expect(path.basename(first)).toMatch(new RegExp(`^rea-captures-${process.pid}-\\d+-[0-9a-f]{8}$`))
    expect(workerCoverageFolder('/parent')).not.toBe(first)
  })
})

describe('takeCapturedScripts', () => {
  test('names a script left out because a loader ran other code, once per file, on stderr', () => {
    const file = path.join(scratch, 'loaded.ts')
    writeFileSync(file, 'const a: number = 1\n')
    const folder = path.join(scratch, 'captures')
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      for (const run of [1, 2]) {
        mkdirSync(folder, { recursive: true })
        writeFileSync(
          path.join(folder, `coverage-${run}-1-0.json`),
          JSON.stringify({
            result: [{ scriptId: '1', url: pathToFileURL(file).href, functions: [] }],
            'source-map-cache': { [pathToFileURL(file).href]: { lineLengths: [5, 0] } },
          }),
        )
        expect(takeCapturedScripts(folder)).toEqual([])
      }
      const lines = write.mock.calls.map(([text]) => String(text))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain(
        `rea-capture: the coverage a captured program recorded for ${file} is left out`,
      )
    } finally {
      write.mockRestore()
    }
  })
})
