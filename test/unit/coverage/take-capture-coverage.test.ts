import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { takeCaptureCoverage } from '../../../src/coverage/take-capture-coverage.js'

const scratch = mkdtempSync(path.join(tmpdir(), 'rea-take-coverage-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let folders = 0

function folderWith(files: Record<string, unknown>): string {
  const folder = path.join(scratch, `folder-${folders++}`)
  mkdirSync(folder)
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(path.join(folder, name), typeof content === 'string' ? content : JSON.stringify(content))
  }
  return folder
}

function source(name: string, text: string): string {
  const file = path.join(scratch, name)
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, text)
  return file
}

const script = (url: string) => ({ scriptId: '1', url, functions: [] })

describe('takeCaptureCoverage', () => {
  test('keeps the scripts of files, leaves out Node’s own, eval’d code and node_modules, and removes the files', () => {
    const program = source('program.js', 'console.log(1)\n')
    const dependency = source('node_modules/dep/index.js', 'module.exports = 1\n')
    const folder = folderWith({
      'coverage-1-1-0.json': {
        result: [
          script(pathToFileURL(program).href),
          script('node:internal/main/run_main_module'),
          script(''),
          script(pathToFileURL(dependency).href),
        ],
      },
    })
    const { scripts, dropped } = takeCaptureCoverage(folder)
    expect(scripts.map((entry) => entry.file)).toEqual([program])
    expect(dropped).toEqual([])
    expect(readdirSync(folder)).toEqual([])
  })

  test('drops a script whose code V8 ran is not the file on disk (a loader’s output), keeps one whose map matches', () => {
    const loaded = source('loaded.ts', 'const a: number = 1\nconsole.log(a)\n')
    const compiled = source('compiled.js', 'console.log(1)\n//# sourceMappingURL=compiled.js.map\n')
    const folder = folderWith({
      'coverage-2-1-0.json': {
        result: [script(pathToFileURL(loaded).href), script(pathToFileURL(compiled).href)],
        'source-map-cache': {
          [pathToFileURL(loaded).href]: { lineLengths: [11, 14, 0] },
          [pathToFileURL(compiled).href]: { lineLengths: [14, 36, 0] },
        },
      },
    })
    const { scripts, dropped } = takeCaptureCoverage(folder)
    expect(scripts.map((entry) => entry.file)).toEqual([compiled])
    expect(dropped).toEqual([{ file: loaded, reason: 'not_the_file_on_disk' }])
  })

  test('reports a coverage file cut short by a kill, and leaves the folders of captures still running alone', () => {
    const folder = folderWith({ 'coverage-3-1-0.json': '{"result":[{"scriptId":' })
    mkdirSync(path.join(folder, '.rea-capture-running'))
    const { scripts, dropped } = takeCaptureCoverage(folder)
    expect(scripts).toEqual([])
    expect(dropped).toEqual([
      { file: path.join(folder, 'coverage-3-1-0.json'), reason: 'unreadable_coverage_file' },
    ])
    expect(readdirSync(folder)).toEqual(['.rea-capture-running'])
  })

  test('takes nothing from a folder no capture has written yet', () => {
    expect(takeCaptureCoverage(path.join(scratch, 'never-created'))).toEqual({ scripts: [], dropped: [] })
  })
})
