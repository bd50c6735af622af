import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { writeFileAtomic, writeFileAtomicSync } from '../../../src/internal/write-file-atomic.js'

const directory = mkdtempSync(path.join(tmpdir(), 'rea-write-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
const file = (name: string): string => path.join(directory, name)
const modeOf = (name: string): number => statSync(file(name)).mode & 0o7777

describe.each([
  [
    'writeFileAtomicSync',
    (target: string, text: string) => Promise.resolve(writeFileAtomicSync(target, text)),
  ],
  ['writeFileAtomic', writeFileAtomic],
] as const)('%s', (name, write) => {
  test('creates a file, and replaces one whole, leaving no temporary file', async () => {
    await write(file(`${name}-new.json`), 'first')
    await write(file(`${name}-new.json`), 'second')
    expect(readFileSync(file(`${name}-new.json`), 'utf8')).toBe('second')
    expect(readdirSync(directory).filter((entry) => entry.endsWith('.rea-tmp'))).toEqual([])
  })

  test('keeps the mode of the file it replaces, bits the umask would clear included', async () => {
    writeFileSync(file(`${name}-mode.json`), 'old')
    chmodSync(file(`${name}-mode.json`), 0o664)
    await write(file(`${name}-mode.json`), 'new')
    expect(modeOf(`${name}-mode.json`)).toBe(0o664)
    chmodSync(file(`${name}-mode.json`), 0o600)
    await write(file(`${name}-mode.json`), 'newer')
    expect(modeOf(`${name}-mode.json`)).toBe(0o600)
  })

  test('writes through a symlink to the file it names, and the link stays a link', async () => {
    writeFileSync(file(`${name}-target.json`), 'old')
    symlinkSync(`${name}-target.json`, file(`${name}-link.json`))
    await write(file(`${name}-link.json`), 'new')
    expect(lstatSync(file(`${name}-link.json`)).isSymbolicLink()).toBe(true)
    expect(readFileSync(file(`${name}-target.json`), 'utf8')).toBe('new')
  })

  test('creates the file a dangling symlink names', async () => {
    symlinkSync(`${name}-later.json`, file(`${name}-dangling.json`))
    await write(file(`${name}-dangling.json`), 'made')
    expect(lstatSync(file(`${name}-dangling.json`)).isSymbolicLink()).toBe(true)
    expect(readFileSync(file(`${name}-later.json`), 'utf8')).toBe('made')
  })
})

test('writes a FIFO directly, so a reader at its other end gets the bytes', async () => {
  const fifo = file('pipe')
  execFileSync('mkfifo', [fifo])
  const read = readFile(fifo, 'utf8')
  await writeFileAtomic(fifo, 'through the pipe')
  expect(await read).toBe('through the pipe')
  expect(statSync(fifo).isFIFO()).toBe(true)
})
