import Module from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { collectCaptureCoverage, stopCollectingCaptureCoverage } from '../../src/front-end.js'
import type { JestRuntime, JestRuntimeClass, JestTransform } from './coverage-host.js'

/*
 * The coverage of programs run inside captures, in Jest's report with `coverageProvider: 'v8'`. Jest collects each
 * test file's V8 coverage in its worker (`Runtime.prototype.getAllV8CoverageInfoCopy`, called once per test file)
 * and sends it to the CoverageReporter in the main process. REA wraps that method once per worker, from the
 * worker's own realm (coverage-host.ts), to append what its captures' programs ran. Internals touched (pinned by
 * the runner-coverage fixture's internals.jest.cjs): the sandbox's `module` whose `_cache` and `_load` are the
 * worker's, jest-runtime's Runtime class (`isolateModules`, `getAllV8CoverageInfoCopy`, `_coverageOptions`,
 * `_config`) and @jest/transform's `shouldInstrument`.
 */

/** Jest's module wrapper passes each module its `jest` object (absent when REA is loaded as an ES module). */
declare const jest: { isolateModules(fn: () => void): void } | undefined

/** What a test file's `require('module')` is under Jest: a copy of Node's whose statics are the worker's. */
interface WorkerModuleStatics {
  readonly _cache?: Record<string, { readonly exports?: unknown } | undefined>
  readonly _load?: (request: string, parent: null, isMain: boolean) => unknown
}

/** The worker-realm half, loaded outside Jest's module registry. */
interface CoverageHost {
  hookRuntime(runtimeClass: JestRuntimeClass, transform: JestTransform): string
}

/** Called when `rea-capture/jest` loads for a test file (inside Jest's sandbox). */
export function collectJestCaptureCoverage(): void {
  const statics = Module as unknown as WorkerModuleStatics
  const runtimeModule = workerModule(statics, ['jest-runtime', 'build', 'index.js']) as
    (JestRuntimeClass & { default?: JestRuntimeClass }) | undefined
  const Runtime = runtimeModule?.default ?? runtimeModule
  const options = Runtime === undefined ? undefined : runningRuntime(Runtime)?._coverageOptions
  if (options?.collectCoverage !== true || options.coverageProvider !== 'v8') {
    // Babel's provider counts only code Jest instrumented: a captured program runs its files as they are.
    stopCollectingCaptureCoverage()
    return
  }
  const transform = workerModule(statics, ['@jest', 'transform', 'build', 'index.js']) as
    Partial<JestTransform> | undefined
  if (
    Runtime === undefined ||
    typeof transform?.shouldInstrument !== 'function' ||
    statics._load === undefined
  ) {
    const message =
      "rea-capture: Jest's coverage is on, but its runtime could not be hooked (has Jest changed?)"
    process.stderr.write(`${message}; programs run inside captures will show as not covered.\n`)
    collectCaptureCoverage(Promise.reject(new Error(message)))
    return
  }
  const hostFile = fileURLToPath(new URL('./jest-coverage-host.cjs', import.meta.url))
  const host = statics._load(hostFile, null, false) as CoverageHost
  collectCaptureCoverage(Promise.resolve(host.hookRuntime(Runtime, transform as JestTransform)))
}

/** A module the worker itself loaded (not the test file's sandbox copy), found in the worker's require cache. */
function workerModule(statics: WorkerModuleStatics, segments: readonly string[]): unknown {
  const suffix = path.sep + segments.join(path.sep)
  const cache = statics._cache ?? {}
  const key = Object.keys(cache).find((name) => name.endsWith(suffix))
  return key === undefined ? undefined : cache[key]?.exports
}

/**
 * The Runtime running this test file. Jest gives tests no access to it or to its configuration; `jest.isolateModules`
 * calls the runtime's method through its prototype, so a wrapper in place for that one call sees the instance.
 */
function runningRuntime(Runtime: JestRuntimeClass): JestRuntime | undefined {
  const prototype = Runtime.prototype
  if (typeof jest === 'undefined' || typeof prototype.isolateModules !== 'function') {
    return undefined
  }
  const original = prototype.isolateModules
  const seen: JestRuntime[] = []
  prototype.isolateModules = function (this: JestRuntime, fn: () => void): void {
    seen.push(this)
    original.call(this, fn)
  }
  try {
    jest.isolateModules(() => undefined)
  } finally {
    prototype.isolateModules = original
  }
  return seen[0]
}
