import { readFileSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {
  scriptSourceMap,
  takeCapturedScripts,
  workerCoverageFolder,
  writeSourceMap,
  type V8ScriptCoverage,
} from '../../src/front-end.js'

/*
 * The worker-realm half of REA's Jest coverage (see coverage.ts): built as its own file (dist/jest-coverage-host.cjs)
 * and loaded with the worker's own loader, outside Jest's module registry, because the method it patches outlives
 * every test file's sandbox (a patch made from a sandbox fails in the next file: "the Jest environment has been torn
 * down").
 */

/** What REA reads of a jest-runtime Runtime instance. */
export interface JestRuntime {
  readonly _coverageOptions?: {
    readonly collectCoverage?: boolean
    readonly coverageProvider?: string
    readonly globalRootDir?: string
  }
  readonly _config?: { readonly rootDir: string; readonly cacheDirectory?: string }
}

/** One entry of a test file's V8 coverage, as jest-runner hands it to the CoverageReporter. */
interface JestV8Entry {
  readonly result: V8ScriptCoverage
  readonly codeTransformResult?: {
    readonly code: string
    readonly originalCode: string
    readonly sourceMapPath: string | null
    readonly wrapperLength?: number
  }
}

/** Jest's Runtime class: its methods are called on an instance, so they are typed as taking one. */
export interface JestRuntimeClass {
  readonly prototype: {
    isolateModules: (this: JestRuntime, fn: () => void) => void
    getAllV8CoverageInfoCopy: (this: JestRuntime) => JestV8Entry[]
  }
}

export interface JestTransform {
  readonly shouldInstrument: (file: string, options: object, config: object) => boolean
}

const HOOKED = Symbol.for('rea-capture.jest-coverage-folder')

/** Wraps the Runtime's coverage method once per worker; returns the folder this worker's captures use. */
export function hookRuntime(runtimeClass: JestRuntimeClass, transform: JestTransform): string {
  const prototype = runtimeClass.prototype as JestRuntimeClass['prototype'] & { [HOOKED]?: string }
  const hooked = prototype[HOOKED]
  if (hooked !== undefined) {
    return hooked
  }
  const folder = workerCoverageFolder(os.tmpdir())
  prototype[HOOKED] = folder
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }))
  const original = prototype.getAllV8CoverageInfoCopy
  prototype.getAllV8CoverageInfoCopy = function (this: JestRuntime): JestV8Entry[] {
    return [...original.call(this), ...capturedEntries(this, folder, transform)]
  }
  return folder
}

/**
 * The scripts captures ran, as Jest's own entries for the files Jest's coverage options keep (`collectCoverageFrom`,
 * `coveragePathIgnorePatterns`, the root; a file the program loaded counts as loaded). Each is given under a second
 * spelling of its path (`<folder>/./<name>`), so the reporter keeps it apart from an in-process entry of the same
 * file, whose offsets are in Jest's transform of it, and with a source map (the file's own, or one from the file to
 * itself) under which the converter reports it at its real path, merged with the in-process counts line by line.
 */
function capturedEntries(runtime: JestRuntime, folder: string, transform: JestTransform): JestV8Entry[] {
  const options = runtime._coverageOptions ?? {}
  const config = runtime._config
  if (config === undefined) {
    return []
  }
  const root = options.globalRootDir ?? config.rootDir
  const mapsFolder = path.join(config.cacheDirectory ?? os.tmpdir(), 'rea-capture-coverage-maps')
  return takeCapturedScripts(folder)
    .filter(
      ({ file }) => file.startsWith(root + path.sep) && transform.shouldInstrument(file, options, config),
    )
    .map(({ file, coverage }) => ({
      result: { ...coverage, url: [path.dirname(file), '.', path.basename(file)].join(path.sep) },
      codeTransformResult: transformOf(file, mapsFolder),
    }))
}

interface FileTransform {
  readonly size: number
  readonly mtimeMs: number
  readonly result: NonNullable<JestV8Entry['codeTransformResult']>
}

/** Per file, while it is unchanged: reading it and building its map once per worker, not once per capture. */
const transforms = new Map<string, FileTransform>()

function transformOf(file: string, mapsFolder: string): FileTransform['result'] {
  const { size, mtimeMs } = statSync(file)
  const known = transforms.get(file)
  if (known !== undefined && known.size === size && known.mtimeMs === mtimeMs) {
    return known.result
  }
  const code = readFileSync(file, 'utf8')
  const sourceMapPath = writeSourceMap(scriptSourceMap(file, code), mapsFolder)
  const result = { code, originalCode: code, sourceMapPath, wrapperLength: 0 }
  transforms.set(file, { size, mtimeMs, result })
  return result
}
