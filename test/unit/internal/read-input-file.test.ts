import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { isReaError } from '../../../src/errors.js'
import {
  readInputFile,
  readInputFileSync,
  type InputFileKind,
} from '../../../src/internal/read-input-file.js'
import { createSpecialFiles, type SpecialFiles } from '../../helpers/special-files.js'

const KIND: InputFileKind = { label: 'The test file', code: 'INVALID_ARGUMENTS', maxBytes: 1024 }
let directory: string
let special: SpecialFiles
beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'rea-read-input-'))
  special = await createSpecialFiles(directory, 2048)
})
afterAll(async () => {
  await special.close()
  rmSync(directory, { recursive: true, force: true })
})

const readers = [
  ['readInputFile', (file: string) => readInputFile(file, KIND)],
  ['readInputFileSync', (file: string) => Promise.resolve().then(() => readInputFileSync(file, KIND))],
] as const

describe.for(readers)('%s', ([, read]) => {
  test('refuses what is not a regular file, or is over the limit, with the kind’s code', async () => {
    for (const [kind, file, message] of special.cases) {
      const error: unknown = await read(file).catch((caught: unknown) => caught)
      expect(isReaError(error) && error.code, kind).toBe('INVALID_ARGUMENTS')
      expect((error as Error).message).toContain(`${file} ${message}`)
    }
  })

  test('drops a leading byte-order mark and reads a file exactly at the limit', async () => {
    const file = path.join(directory, 'bom.json')
    writeFileSync(file, `\uFEFF${'x'.repeat(1021)}`)
    expect(await read(file)).toBe('x'.repeat(1021))
  })

  test('names the error code and its description when the file cannot be opened', async () => {
    const error: unknown = await read(path.join(directory, 'missing.json')).catch((caught: unknown) => caught)
    expect((error as Error).message).toMatch(/could not be read \(ENOENT\): no such file or directory\.$/)
  })
})
