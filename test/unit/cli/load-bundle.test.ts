import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { buildSync } from 'esbuild'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { REPO_ROOT } from '../../helpers/fixtures.js'

// Each load runs in a Node process of its own, as each `rea` does. Within one process V8 keeps what it compiled in
// memory and may skip the code cache, so a test there could not tell a cache that works from one that is ignored.
let loader: string
let folder: string
let bundle: string
beforeAll(() => {
  loader = path.join(mkdtempSync(path.join(tmpdir(), 'rea-loader-')), 'load-bundle.mjs')
  buildSync({
    entryPoints: [path.join(REPO_ROOT, 'src/cli/load-bundle.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: loader,
    logLevel: 'silent',
  })
})
afterAll(() => rmSync(path.dirname(loader), { recursive: true, force: true }))
beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'rea-load-bundle-'))
  bundle = path.join(folder, 'command.cjs')
  writeFileSync(path.join(folder, 'helper.cjs'), 'exports.twice = (n) => n * 2\n')
  writeBundle('A')
  return () => rmSync(folder, { recursive: true, force: true })
})

/** A CommonJS bundle that requires a neighbour; `mark` changes its content but never its length. */
function writeBundle(mark: string): void {
  writeFileSync(
    bundle,
    `const { twice } = require('./helper.cjs')\n` +
      `exports.mark = '${mark}'\n` +
      `exports.answer = () => twice(21)\n` +
      `exports.ownNames = __filename === ${JSON.stringify(bundle)} && module.exports === exports\n`,
  )
}

interface Load {
  readonly cache: string
  readonly mark: unknown
  readonly answer: unknown
  readonly ownNames: unknown
}

/** Loads the bundle in a new Node process, runs it, saves the cache as `rea` does after a command. */
function load(): Load {
  const script =
    `import { loadBundle } from ${JSON.stringify(loader)}\n` +
    `const loaded = loadBundle(${JSON.stringify(bundle)})\n` +
    `const { mark, answer, ownNames } = loaded.exports\n` +
    `console.log(JSON.stringify({ cache: loaded.cache, mark, answer: answer(), ownNames }))\n` +
    `loaded.saveCache()\n`
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
  ) as Load
}

describe('loadBundle', () => {
  test('runs a CommonJS bundle with require, module and __filename of its own', () => {
    expect(load()).toEqual({ cache: 'absent', mark: 'A', answer: 42, ownNames: true })
  })

  test('writes a code cache after the run and compiles from it the next time', () => {
    expect(load().cache).toBe('absent')
    expect(readdirSync(folder).sort()).toEqual(['command.cjs', 'command.cjs.cache', 'helper.cjs'])
    expect(load()).toEqual({ cache: 'used', mark: 'A', answer: 42, ownNames: true })
  })

  test('never runs a cache made for other content of the same length', () => {
    // V8 checks a cache against the source's length only: without REA's digest, this load would run the old code.
    load()
    writeBundle('B')
    expect(load()).toMatchObject({ cache: 'rejected', mark: 'B' })
    expect(load()).toMatchObject({ cache: 'used', mark: 'B' })
  })

  test('compiles as usual from a cache V8 refuses, and replaces it', () => {
    load()
    const cache = readFileSync(`${bundle}.cache`)
    // The digest still matches; what V8 made does not.
    writeFileSync(
      `${bundle}.cache`,
      Buffer.concat([cache.subarray(0, 32), Buffer.from('not a V8 code cache')]),
    )
    expect(load()).toMatchObject({ cache: 'rejected', mark: 'A', answer: 42 })
    expect(load().cache).toBe('used')
  })

  test('a cache that cannot be written is no error, and leaves nothing behind', () => {
    // A directory where the cache would go: the rename fails, as it would in a read-only install.
    mkdirSync(`${bundle}.cache`)
    expect(load()).toEqual({ cache: 'absent', mark: 'A', answer: 42, ownNames: true })
    expect(readdirSync(folder).sort()).toEqual(['command.cjs', 'command.cjs.cache', 'helper.cjs'])
  })
})
