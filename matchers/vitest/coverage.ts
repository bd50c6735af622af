import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  collectCaptureCoverage,
  stopCollectingCaptureCoverage,
  takeCapturedScripts,
  workerCoverageFolder,
  type V8ScriptCoverage,
} from '../../src/front-end.js'
import { workerConfig } from './worker.js'

/*
 * The coverage of programs run inside captures, in Vitest's v8 coverage report. Vitest's worker takes its own
 * coverage through the default export of `@vitest/coverage-v8` (`takeCoverage`, looked up on each call) and sends
 * it to the main process. REA wraps that function once per worker and appends the scripts its captures' programs
 * ran. Internals touched (pinned by test/unit/matchers/vitest-coverage-internals.test.ts and the runner-coverage
 * fixture's internals.vitest.mjs): the worker's `config.coverage`, the provider module's mutable `takeCoverage`,
 * and the provider reading a file from disk when Vite cannot load its id.
 */

/** The part of Vitest's coverage options its worker receives. */
export interface VitestWorkerCoverage {
  readonly enabled?: boolean
  readonly provider?: string
  /** Vitest 5: the worker points NODE_V8_COVERAGE at a folder it reads back itself. */
  readonly autoAttachSubprocess?: boolean
  readonly reportsDirectory?: string
}

interface ProviderModule {
  takeCoverage?: (options?: unknown) => unknown
  [HOOKED]?: string
}

/** Vitest 4 returns the coverage; Vitest 5 writes it to a file and returns the file's name. */
type WorkerCoverage = { result: V8ScriptCoverage[] } | string | null | undefined

const HOOKED = Symbol.for('rea-capture.vitest-coverage-folder')

/** Called when `rea-capture/vitest` loads in a test worker. */
export function collectVitestCaptureCoverage(): void {
  const root = workerConfig()?.root ?? process.cwd()
  const coverage = workerConfig()?.coverage
  // Istanbul counts only code Vite instrumented: a captured program runs its files as they are (docs/coverage.md).
  // With autoAttachSubprocess, captures inherit the worker's NODE_V8_COVERAGE and Vitest reads it back itself.
  if (coverage?.enabled !== true || coverage.provider !== 'v8' || coverage.autoAttachSubprocess === true) {
    stopCollectingCaptureCoverage()
    return
  }
  collectCaptureCoverage(hookTakeCoverage(coverage, root))
}

/** Wraps the worker's `takeCoverage` once, and returns the folder this worker's captures use. */
async function hookTakeCoverage(coverage: VitestWorkerCoverage, root: string): Promise<string> {
  const provider = await providerModule()
  const hooked = provider[HOOKED]
  if (hooked !== undefined) {
    return hooked
  }
  const take = provider.takeCoverage
  if (typeof take !== 'function') {
    const message = 'rea-capture: @vitest/coverage-v8 has no takeCoverage to hook (has Vitest changed?)'
    process.stderr.write(`${message}; programs run inside captures will show as not covered.\n`)
    throw new Error(message)
  }
  // Vitest removes `<reportsDirectory>/.tmp` after every run: nothing is left behind, even by a killed worker.
  const parent =
    coverage.reportsDirectory === undefined
      ? os.tmpdir()
      : path.join(path.resolve(root, coverage.reportsDirectory), '.tmp')
  const folder = workerCoverageFolder(parent)
  provider[HOOKED] = folder
  provider.takeCoverage = async function (this: unknown, options?: unknown): Promise<WorkerCoverage> {
    const own = (await take.call(this, options)) as WorkerCoverage
    return withCapturedScripts(own, folder)
  }
  return folder
}

/**
 * The provider module instance Vitest's worker uses: Vitest imports it by its bare name from its own files, so it
 * is resolved from the running Vitest's folder, and the ES module cache then gives the very same instance.
 */
async function providerModule(): Promise<ProviderModule> {
  const file = createRequire(path.join(runningVitestFolder(), 'package.json')).resolve('@vitest/coverage-v8')
  const loaded = (await import(pathToFileURL(file).href)) as { default?: ProviderModule }
  if (loaded.default === undefined) {
    throw new Error('rea-capture: @vitest/coverage-v8 has no default export')
  }
  return loaded.default
}

/**
 * The folder of the Vitest running this worker: every pool starts its worker from `<vitest>/dist/workers/<pool>.js`.
 * Where that is not so, the Vitest REA itself resolves (the same one, unless a workspace links two copies).
 */
function runningVitestFolder(): string {
  const script = process.argv[1]
  if (script !== undefined && /[/\\]dist[/\\]workers[/\\][^/\\]+\.js$/.test(script)) {
    const folder = path.resolve(script, '../../..')
    if (existsSync(path.join(folder, 'package.json')) && packageName(folder) === 'vitest') {
      return folder
    }
  }
  return path.dirname(createRequire(import.meta.url).resolve('vitest/package.json'))
}

function packageName(folder: string): unknown {
  return (JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { name?: unknown }).name
}

/**
 * The worker's coverage with the captured scripts appended. Their URLs are spelt `file://localhost/<path>`: the
 * provider cannot have Vite load that id, so it reads the file from disk (the code the program ran) instead of
 * Vite's transform of it, keeps the entries apart from the in-process ones of the same file until it has
 * converted them, and reports them under the same path, merged line by line.
 */
function withCapturedScripts(own: WorkerCoverage, folder: string): WorkerCoverage {
  const scripts = takeCapturedScripts(folder)
    // The provider cannot parse TypeScript it reads from disk (Node's type stripping ran it): left out, documented.
    .filter(({ file }) => !/\.[cm]?ts$/.test(file))
    .map(({ file, coverage }) => ({
      ...coverage,
      url: `file://localhost${pathToFileURL(file).pathname}`,
      startOffset: 0,
    }))
  if (scripts.length === 0) {
    return own
  }
  if (typeof own === 'string') {
    const document = JSON.parse(readFileSync(own, 'utf8')) as { result: V8ScriptCoverage[] }
    document.result.push(...scripts)
    writeFileSync(own, JSON.stringify(document))
    return own
  }
  if (own === null || own === undefined) {
    return { result: scripts }
  }
  own.result.push(...scripts)
  return own
}
