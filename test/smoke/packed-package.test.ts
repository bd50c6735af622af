import { execFile } from 'node:child_process'
import {
  cpSync,
  existsSync,
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

/**
 * What a user gets from `npm install rea-capture`: the tarball `npm pack` makes, installed with npm into a scratch
 * project. node-pty (an optional dependency that builds from source) and the test runners are linked from
 * this checkout instead of being installed again.
 */
let project: string
let tarball: string
beforeAll(async () => {
  project = mkdtempSync(path.join(tmpdir(), 'rea-packed-'))
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', project], { cwd: REPO_ROOT })
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }]
  tarball = filename
  writeFileSync(path.join(project, 'package.json'), '{ "name": "scratch", "private": true }\n')
  // By its name, as the README says (`npm install --save-dev rea-capture`), from the tarball instead of the registry.
  await run(
    'npm',
    [
      'install',
      '--save-dev',
      `rea-capture@file:${path.join(project, filename)}`,
      '--omit=optional',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
    ],
    { cwd: project },
  )
  for (const linked of ['node-pty', 'jest', '@swc', 'vitest']) {
    const target = path.join(project, 'node_modules', linked)
    if (!existsSync(target)) {
      symlinkSync(path.join(REPO_ROOT, 'node_modules', linked), target)
    }
  }
}, 180_000)
afterAll(() => rmSync(project, { recursive: true, force: true }))

async function node(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: project })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string }
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr }
  }
}

describe('the packed package, installed with npm', () => {
  test('is rea-capture: the tarball, the dependency the project records, and the rea command it installs', async () => {
    expect(tarball).toMatch(/^rea-capture-\d+\.\d+\.\d+.*\.tgz$/)
    const scratch = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')) as {
      devDependencies?: Record<string, string>
    }
    expect(Object.keys(scratch.devDependencies ?? {})).toEqual(['rea-capture'])
    const installed = JSON.parse(
      readFileSync(path.join(project, 'node_modules/rea-capture/package.json'), 'utf8'),
    ) as { name: string; version: string; bin: Record<string, string> }
    expect(installed.name).toBe('rea-capture')
    expect(Object.keys(installed.bin)).toEqual(['rea'])
    const version = await node(['node_modules/.bin/rea', '--version'])
    expect(version.stdout.trim(), version.stderr).toBe(installed.version)
  })

  test('ships dist, docs and the types of every entry, and nothing from the tests', () => {
    const installed = path.join(project, 'node_modules/rea-capture')
    for (const file of [
      'dist/index.d.ts',
      'dist/index.d.cts',
      'dist/vitest.d.ts',
      'dist/jest.d.ts',
      'dist/reporter.d.ts',
      'dist/jest-reporter.cjs',
      'docs/reporter.md',
      'dist/cli/main.cjs',
      'docs/vitest.md',
    ]) {
      expect(existsSync(path.join(installed, file)), file).toBe(true)
    }
    expect(readdirSync(installed).sort()).toEqual(['README.md', 'dist', 'docs', 'native', 'package.json'])
    // The spawner and the supervisor's waiter ship as source and are compiled on the user's machine, never as this
    // checkout's binaries.
    expect(readdirSync(path.join(installed, 'native/linux')).sort()).toEqual([
      'binding.gyp',
      'build.mjs',
      'detached-spawn.c',
      'master-reader.c',
      'pty-spawn.c',
      'rea-native.h',
      'supervisor-waiter.c',
    ])
  })

  test('ships no source map: a map names sources the package does not ship, and tools show those frames', () => {
    const dist = path.join(project, 'node_modules/rea-capture/dist')
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' })
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([])
    const mapped = files.filter(
      (file) =>
        /\.c?js$/.test(file) &&
        /^\/\/[#@] sourceMappingURL=/m.test(readFileSync(path.join(dist, file), 'utf8')),
    )
    expect(mapped).toEqual([])
  })

  test('captures through node-pty until its install script built the spawner, then through the spawner', async () => {
    const spawner = async (): Promise<string> => {
      const result = await node(['node_modules/rea-capture/dist/cli/main.cjs', 'capabilities', '--json'])
      expect(result.code, result.stderr).toBe(0)
      return (JSON.parse(result.stdout) as { pty_backend: { detail: string } }).pty_backend.detail
    }
    // Installed with --ignore-scripts, as npm may do: nothing was built.
    expect(await spawner()).toBe('the node-pty PTY backend ran a test process (output drain complete)')
    await run('npm', ['rebuild', 'rea-capture', '--no-audit', '--no-fund'], { cwd: project })
    expect(await spawner()).toBe('the native PTY backend ran a test process (output drain complete)')
  }, 120_000)

  test('imports from plain Node ESM and CommonJS, and resolves both runner entries', async () => {
    const esm = await node([
      '--input-type=module',
      '-e',
      `import { captureProcess, compareCaptures } from 'rea-capture'
       const e = await captureProcess({ executable: 'echo', arguments: ['packed'] })
       const { default: Reporter } = await import('rea-capture/reporter')
       console.log(compareCaptures(e, e).verdict, import.meta.resolve('rea-capture/vitest').endsWith('/dist/vitest.js'), typeof new Reporter().onTestRunEnd)`,
    ])
    expect(esm.stdout.trim(), esm.stderr).toBe('equivalent true function')
    const cjs = await node([
      '-e',
      `const { captureProcess } = require('rea-capture')
       captureProcess({ executable: 'echo', arguments: ['packed'] }).then((e) =>
         console.log(e.exit.code, require.resolve('rea-capture/jest').endsWith('/dist/jest.cjs'), typeof require('rea-capture/jest-reporter').default))`,
    ])
    expect(cjs.stdout.trim(), cjs.stderr).toBe('0 true function')
  })

  test('renders the divergence page and a recording from the installed package (xterm.js found and inlined)', async () => {
    const result = await node([
      '--input-type=module',
      '-e',
      `import { captureProcess, exportAsciicast, renderDivergencePage } from 'rea-capture'
       const [a, b] = await Promise.all(['one', 'two'].map((word) => captureProcess({ executable: 'echo', arguments: [word] })))
       const page = renderDivergencePage({ authority: a, reconstruction: b })
       console.log(page.includes('xterm'), page.length > 400_000, exportAsciicast(b).includes('"o","two'))`,
    ])
    expect(result.stdout.trim(), result.stderr).toBe('true true true')
  })

  test(
    'runs a Jest test with the packed rea-capture/jest and rea-capture/jest-reporter',
    { timeout: 60_000 },
    async () => {
      const fixture = path.join(REPO_ROOT, 'test/fixtures/projects/jest-basic')
      const suite = path.join(project, 'suite')
      mkdirSync(suite)
      cpSync(fixture, suite, { recursive: true })
      const { CI: _ci, ...env } = process.env
      const result = await run(
        process.execPath,
        [
          path.join(project, 'node_modules/jest/bin/jest.js'),
          '--rootDir',
          suite,
          '--reporters=default',
          '--reporters=rea-capture/jest-reporter',
        ],
        {
          cwd: suite,
          env,
        },
      ).then(
        ({ stderr }) => ({ code: 0, stderr }),
        (error: unknown) => {
          const failure = error as { code: number; stderr: string }
          return { code: failure.code, stderr: failure.stderr }
        },
      )
      expect(result.stderr).toMatch(/Tests:\s+2 passed/)
      expect(result.code).toBe(0)
      const index = JSON.parse(readFileSync(path.join(suite, 'rea-report/index.json'), 'utf8')) as {
        totals: { assertions: number }
      }
      expect(index.totals.assertions).toBe(2)
    },
  )
})
