import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import {
  identitySourceMap,
  scriptSourceMap,
  writeSourceMap,
} from '../../../src/coverage/script-source-map.js'

const scratch = mkdtempSync(path.join(tmpdir(), 'rea-source-map-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Decodes `mappings` into [generated line, generated column, source line, source column] per segment. */
function decode(mappings: string): number[][] {
  const state = [0, 0, 0, 0]
  return mappings.split(';').flatMap((line, lineIndex) => {
    state[0] = 0
    return line === ''
      ? []
      : line.split(',').map((segment) => {
          const values: number[] = []
          let value = 0
          let shift = 0
          for (const char of segment) {
            const digit = BASE64.indexOf(char)
            value += (digit & 31) << shift
            if ((digit & 32) === 0) {
              values.push(value & 1 ? -(value >> 1) : value >> 1)
              value = 0
              shift = 0
            } else {
              shift += 5
            }
          }
          state[0] = (state[0] as number) + (values[0] as number)
          state[2] = (state[2] as number) + (values[2] as number)
          state[3] = (state[3] as number) + (values[3] as number)
          return [lineIndex, state[0], state[2], state[3]] as number[]
        })
  })
}

describe('identitySourceMap', () => {
  test('maps every column of every line to itself, blank lines included', () => {
    const code = 'const a = 1\n\nfunction f() {\n  return a\n}\n'
    const map = identitySourceMap('/p/f.js', code)
    expect(map.sources).toEqual(['/p/f.js'])
    expect(map.sourcesContent).toEqual([code])
    const segments = decode(map.mappings)
    expect(
      segments.every(
        ([line, column, sourceLine, sourceColumn]) => line === sourceLine && column === sourceColumn,
      ),
    ).toBe(true)
    const lines = code.split('\n')
    expect(segments).toHaveLength(lines.reduce((sum, line) => sum + Math.max(line.length, 1), 0))
  })
})

describe('scriptSourceMap', () => {
  test('takes the map a file names, with its sources made absolute and their text filled in', () => {
    const original = path.join(scratch, 'src/tool.ts')
    const compiled = path.join(scratch, 'out/tool.js')
    writeFileSyncDeep(original, 'export const x: number = 1\n')
    writeFileSyncDeep(compiled, 'exports.x = 1\n//# sourceMappingURL=maps/tool.js.map\n')
    writeFileSyncDeep(
      path.join(scratch, 'out/maps/tool.js.map'),
      JSON.stringify({
        version: 3,
        sourceRoot: '../..',
        sources: ['src/tool.ts'],
        names: [],
        mappings: 'AAAA',
      }),
    )
    const map = scriptSourceMap(compiled, readFileSync(compiled, 'utf8'))
    expect(map.sources).toEqual([original])
    expect(map.sourcesContent).toEqual(['export const x: number = 1\n'])
    expect(map.mappings).toBe('AAAA')
  })

  test('reads an inline data: map', () => {
    const inline = Buffer.from(
      JSON.stringify({ version: 3, sources: ['a.ts'], sourcesContent: ['a'], names: [], mappings: 'AAAA' }),
    ).toString('base64')
    const file = path.join(scratch, 'inline.js')
    const map = scriptSourceMap(file, `x\n//# sourceMappingURL=data:application/json;base64,${inline}\n`)
    expect(map.sources).toEqual([path.join(scratch, 'a.ts')])
    expect(map.sourcesContent).toEqual(['a'])
  })

  test('falls back to the identity map when the named map is missing or not a map', () => {
    const file = path.join(scratch, 'broken.js')
    expect(scriptSourceMap(file, 'x\n//# sourceMappingURL=nowhere.map\n').sources).toEqual([file])
    writeFileSync(path.join(scratch, 'bad.map'), '{"version":2}')
    expect(scriptSourceMap(file, 'x\n//# sourceMappingURL=bad.map\n').sources).toEqual([file])
  })
})

describe('writeSourceMap', () => {
  test('writes a map once under a name from its content', () => {
    const map = identitySourceMap('/p/a.js', 'a\n')
    const first = writeSourceMap(map, path.join(scratch, 'maps'))
    expect(writeSourceMap(map, path.join(scratch, 'maps'))).toBe(first)
    expect(JSON.parse(readFileSync(first, 'utf8'))).toEqual(map)
  })
})

function writeFileSyncDeep(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, text)
}
