import { execFile } from 'node:child_process'
import { builtinModules } from 'node:module'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { REPO_ROOT } from '../helpers/fixtures.js'

const run = promisify(execFile)

/** Runs Node on a snippet in `cwd`; Vitest's own module loading is not involved. */
async function node(
  args: string[],
  cwd = REPO_ROOT,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string }
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr }
  }
}

const CAPTURE = `captureProcess({ executable: 'echo', arguments: ['smoke'] }).then((e) => console.log(JSON.stringify({ code: e.exit.code, lines: e.terminal.frames.at(-1).lines.slice(0, 1) })))`

describe('the built package', () => {
  test('captures from plain Node ESM (the @xterm/headless named-import trap)', async () => {
    const result = await node([
      '--input-type=module',
      '-e',
      `import { captureProcess } from './dist/index.js'; ${CAPTURE}`,
    ])
    expect(result.stderr).toBe('')
    expect(JSON.parse(result.stdout)).toEqual({ code: 0, lines: ['smoke'] })
  })

  test('captures from plain Node CommonJS', async () => {
    const result = await node(['-e', `const { captureProcess } = require('./dist/index.cjs'); ${CAPTURE}`])
    expect(result.stderr).toBe('')
    expect(JSON.parse(result.stdout)).toEqual({ code: 0, lines: ['smoke'] })
  })

  test('exposes a working CLI entry with a shebang', async () => {
    const result = await node(['dist/cli/main.cjs', '--version'])
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
    expect(readFileSync(path.join(REPO_ROOT, 'dist/cli/main.cjs'), 'utf8')).toMatch(
      /^#!\/usr\/bin\/env node\n/,
    )
  })

  test('still runs as dist/cli/main.js, the entry scripts named before it became CommonJS', async () => {
    const result = await node(['dist/cli/main.js', 'capabilities', '--json'])
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ capture: { status: 'available' } })
  })

  test('imports Node built-ins as node:<name>: a bare `tty` was resolved as a file by Vite for some project paths', () => {
    const files = readdirSync(path.join(REPO_ROOT, 'dist'), { recursive: true })
      .map(String)
      .filter((name) => /\.(c?js)$/.test(name))
    const bare = new RegExp(
      String.raw`(?:from\s*|require\(\s*|import\(\s*)["'](${builtinModules.filter((name) => !name.startsWith('_')).join('|')})["']`,
    )
    const offenders = files.filter((name) =>
      bare.test(readFileSync(path.join(REPO_ROOT, 'dist', name), 'utf8')),
    )
    expect(files.length).toBeGreaterThan(10)
    expect(offenders).toEqual([])
  })

  test('the CLI is its entry and two bundles with one copy of the engine: a capture loads only the first', () => {
    // Each bundled module's code is a function under a key that names its source file: `"src/x.ts"() {`.
    const modulesOf = (bundle: string): string[] =>
      [
        ...readFileSync(path.join(REPO_ROOT, 'dist/cli', bundle), 'utf8').matchAll(
          /"((?:src|node_modules)\/[^"]+)"\(/g,
        ),
      ].map((match) => match[1]!)
    const run = modulesOf('run.cjs')
    const commands = modulesOf('commands.cjs')
    expect(run).toContain('src/capture/run-capture.ts')
    expect(run).toContain('src/scenario/schema.ts')
    expect(commands).toContain('src/compare/compare-captures.ts')
    expect(commands).toContain('src/mcp/server.ts')
    // Shared modules live in run.cjs only: commands.cjs takes them from it.
    expect(run.filter((module) => commands.includes(module))).toEqual([])
    expect(run.filter((module) => /^src\/(?:compare|view|record|mcp|export)\//.test(module))).toEqual([])
    expect(run.filter((module) => module.includes('@toon-format'))).toEqual([])
  })

  test('the TOON encoder is a bundle of its own, loaded only by a run that writes TOON', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'rea-toon-bundle-'))
    try {
      writeFileSync(path.join(work, 'true.json'), JSON.stringify({ executable: 'true' }))
      // Lists, as the CLI's process exits, the files it loaded from dist/cli.
      const hook = path.join(work, 'loaded.cjs')
      writeFileSync(
        hook,
        `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(path.join(work, 'loaded.json'))}, JSON.stringify(Object.keys(require.cache).map((file) => require('node:path').basename(file)))))`,
      )
      const loaded = async (format: string[]): Promise<string[]> => {
        const result = await node(
          ['--require', hook, path.join(REPO_ROOT, 'dist/cli/main.cjs'), 'capture-process', 'true.json']
            .concat(format)
            .concat(['--output', 'evidence', '--no-progress']),
          work,
        )
        expect(result.stderr).toBe('')
        return JSON.parse(readFileSync(path.join(work, 'loaded.json'), 'utf8')) as string[]
      }
      const json = await loaded(['--json'])
      expect(json).toContain('run.cjs')
      expect(json).not.toContain('toon.cjs')
      expect(json).not.toContain('commands.cjs')
      expect(await loaded(['--format', 'toon'])).toContain('toon.cjs')
      expect(readFileSync(path.join(work, 'evidence'), 'utf8')).toMatch(
        /^format: rea\.process-capture\.evidence$/m,
      )
    } finally {
      rmSync(work, { recursive: true, force: true })
    }
  })

  test('the CLI bundles hold no character beyond Latin-1, so V8 keeps their text one byte per character', () => {
    for (const bundle of ['main.cjs', 'run.cjs', 'commands.cjs', 'toon.cjs']) {
      const text = readFileSync(path.join(REPO_ROOT, 'dist/cli', bundle), 'utf8')
      const wide = [...text.matchAll(/[\u0100-\u{10ffff}]/gu)].map((match) => `${bundle}@${match.index}`)
      expect(wide).toEqual([])
    }
  })

  test('the CLI is its entry and three bundles, and running commands writes nothing into the package', async () => {
    const folder = path.join(REPO_ROOT, 'dist/cli')
    expect(readdirSync(folder).sort()).toEqual(['commands.cjs', 'main.cjs', 'main.js', 'run.cjs', 'toon.cjs'])
    const before = readdirSync(path.join(REPO_ROOT, 'dist'), { recursive: true }).map(String).sort()
    for (const args of [['capabilities', '--json'], ['schema', 'scenario'], ['--version']]) {
      expect((await node(['dist/cli/main.cjs', ...args])).code).toBe(0)
    }
    expect(readdirSync(path.join(REPO_ROOT, 'dist'), { recursive: true }).map(String).sort()).toEqual(before)
  })
})

describe('an install without the native PTY binary', () => {
  let project: string
  beforeAll(() => {
    // A project where rea is installed but its optional node-pty dependency is missing.
    project = mkdtempSync(path.join(tmpdir(), 'rea-no-pty-'))
    const installed = path.join(project, 'node_modules/rea-capture')
    mkdirSync(installed, { recursive: true })
    cpSync(path.join(REPO_ROOT, 'dist'), path.join(installed, 'dist'), { recursive: true })
    cpSync(path.join(REPO_ROOT, 'package.json'), path.join(installed, 'package.json'))
    // Every runtime dependency from package.json, so a new one can never be forgotten here.
    const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>
    }
    for (const dependency of Object.keys(manifest.dependencies)) {
      const target = path.join(project, 'node_modules', dependency)
      mkdirSync(path.dirname(target), { recursive: true })
      symlinkSync(path.join(REPO_ROOT, 'node_modules', dependency), target)
    }
    writeFileSync(path.join(project, 'scenario.json'), JSON.stringify({ executable: 'echo' }))
  })
  afterAll(() => rmSync(project, { recursive: true, force: true }))

  test('imports fine and reports a capture as a capability error with the reinstall advice', async () => {
    const result = await node(
      [
        '--input-type=module',
        '-e',
        `import { captureProcess } from 'rea-capture'; captureProcess({ executable: 'echo' }).catch((e) => console.log(JSON.stringify({ code: e.code, hint: e.hint })))`,
      ],
      project,
    )
    const error = JSON.parse(result.stdout) as { code: string; hint: string }
    expect(error.code).toBe('CAPABILITY_UNAVAILABLE')
    expect(error.hint).toContain('optional dependencies enabled')
  })

  test('exits 4 from the CLI for a capture and for the capability check', async () => {
    const cli = path.join(project, 'node_modules/rea-capture/dist/cli/main.cjs')
    const capture = await node([cli, 'capture-process', 'scenario.json'], project)
    expect(capture.code).toBe(4)
    expect(capture.stderr).toContain('node-pty')
    expect(capture.stderr).not.toMatch(/^\s+at /m)
    const capabilities = await node([cli, 'capabilities', '--json'], project)
    expect(capabilities.code).toBe(4)
    expect(JSON.parse(capabilities.stdout)).toMatchObject({
      capture: { status: 'unavailable' },
      pty_backend: { status: 'unavailable' },
      comparison: { status: 'available' },
    })
  })

  test('still compares saved captures: comparison needs no PTY', async () => {
    // Captured where node-pty is installed, compared where it is not.
    const saved = path.join(project, 'saved.json')
    const capture = await node([
      'dist/cli/main.cjs',
      'capture-process',
      path.join(project, 'scenario.json'),
      '--json',
      '--no-progress',
      '-o',
      saved,
    ])
    expect(capture.code, capture.stderr).toBe(0)
    const cli = path.join(project, 'node_modules/rea-capture/dist/cli/main.cjs')
    const comparison = await node([cli, 'compare-process-captures', saved, saved, '--json'], project)
    expect(comparison.code, comparison.stderr).toBe(0)
    expect(JSON.parse(comparison.stdout)).toMatchObject({ verdict: 'equivalent' })
  })
})

describe('an install in a folder whose name holds # and %', () => {
  // A URL ends at `#` and decodes `%20`: a path turned into a URL without escaping them names another folder.
  let project: string
  beforeAll(() => {
    project = path.join(mkdtempSync(path.join(tmpdir(), 'rea-odd-')), 'C# 100%20 tools')
    const installed = path.join(project, 'node_modules/rea-capture')
    mkdirSync(installed, { recursive: true })
    cpSync(path.join(REPO_ROOT, 'dist'), path.join(installed, 'dist'), { recursive: true })
    cpSync(path.join(REPO_ROOT, 'package.json'), path.join(installed, 'package.json'))
    for (const name of readdirSync(path.join(REPO_ROOT, 'node_modules'))) {
      if (name !== 'rea-capture' && !name.startsWith('.')) {
        symlinkSync(path.join(REPO_ROOT, 'node_modules', name), path.join(project, 'node_modules', name))
      }
    }
    writeFileSync(
      path.join(project, 'scenario.json'),
      JSON.stringify({ executable: 'echo', arguments: ['odd'] }),
    )
  })
  afterAll(() => rmSync(path.dirname(project), { recursive: true, force: true }))

  test('captures from CommonJS and from ESM', async () => {
    for (const args of [
      ['-e', `const { captureProcess } = require('rea-capture'); ${CAPTURE}`],
      ['--input-type=module', '-e', `import { captureProcess } from 'rea-capture'; ${CAPTURE}`],
    ]) {
      const result = await node(args, project)
      expect(result.stderr).toBe('')
      expect(JSON.parse(result.stdout)).toEqual({ code: 0, lines: ['smoke'] })
    }
  })

  test('captures from the CLI, through both of its entries', async () => {
    for (const entry of ['main.cjs', 'main.js']) {
      const cli = path.join(project, 'node_modules/rea-capture/dist/cli', entry)
      const result = await node([cli, 'capture-process', 'scenario.json', '--json', '--no-progress'], project)
      expect(result.stderr, entry).toBe('')
      expect(JSON.parse(result.stdout)).toMatchObject({ exit: { code: 0 } })
    }
  })
})
