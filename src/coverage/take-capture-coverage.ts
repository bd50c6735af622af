import { readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** V8's coverage of one function: byte ranges of the script and how often each ran. */
export interface V8FunctionCoverage {
  readonly functionName: string
  readonly ranges: readonly {
    readonly startOffset: number
    readonly endOffset: number
    readonly count: number
  }[]
  readonly isBlockCoverage: boolean
}

/** V8's coverage of one script, as `NODE_V8_COVERAGE` files and the inspector's `takePreciseCoverage` hold it. */
export interface V8ScriptCoverage {
  readonly scriptId: string
  readonly url: string
  readonly functions: readonly V8FunctionCoverage[]
}

/** A script a captured program ran, whose file on disk is the code V8 ran. */
export interface CapturedScript {
  /** The script's absolute path. */
  readonly file: string
  readonly coverage: V8ScriptCoverage
}

/** A script left out, and why (for a runner's debug output; the reasons are documented in docs/coverage.md). */
export interface DroppedScript {
  readonly file: string
  readonly reason: 'not_the_file_on_disk' | 'unreadable_coverage_file'
}

export interface TakenCoverage {
  readonly scripts: CapturedScript[]
  readonly dropped: DroppedScript[]
}

interface NodeCoverageFile {
  readonly result?: readonly V8ScriptCoverage[]
  /** Present for scripts with a source map: the line lengths of the code V8 ran. */
  readonly 'source-map-cache'?: Readonly<Record<string, { readonly lineLengths?: readonly number[] }>>
}

/**
 * Reads the coverage files captures left in `directory` and removes them: what the runner's glue hands its
 * coverage provider. Kept: scripts with a `file:` URL outside `node_modules` whose file on disk is the code that
 * ran; a script a loader (tsx, ts-node, Babel's register hook) transformed in memory is dropped, because every
 * provider reads the file from disk and would lay the offsets V8 counted over other code. Node's own files
 * (`node:`), eval'd code and anything else without a file are left out quietly.
 */
export function takeCaptureCoverage(directory: string): TakenCoverage {
  const scripts: CapturedScript[] = []
  const dropped: DroppedScript[] = []
  const sameAsDisk = new Map<string, boolean>()
  for (const name of coverageFileNames(directory)) {
    const file = path.join(directory, name)
    const document = readCoverageFile(file)
    rmSync(file, { force: true })
    if (document === undefined) {
      dropped.push({ file, reason: 'unreadable_coverage_file' })
      continue
    }
    for (const coverage of document.result ?? []) {
      const script = scriptFile(coverage.url)
      if (script === undefined) {
        continue
      }
      const lineLengths = document['source-map-cache']?.[coverage.url]?.lineLengths
      const same = sameAsDisk.get(script) ?? isFileThatRan(script, lineLengths)
      sameAsDisk.set(script, same)
      if (same) {
        scripts.push({ file: script, coverage })
      } else {
        dropped.push({ file: script, reason: 'not_the_file_on_disk' })
      }
    }
  }
  return { scripts, dropped }
}

function coverageFileNames(directory: string): string[] {
  try {
    // Only files: the private folders of captures still running are directories and stay untouched.
    return readdirSync(directory, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map((entry) => entry.name)
      .sort()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return [] // no capture of this worker has finished yet
    }
    throw error
  }
}

function readCoverageFile(file: string): NodeCoverageFile | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as NodeCoverageFile
  } catch {
    // A process killed while Node wrote its coverage leaves a part of a file: reported as dropped.
    return undefined
  }
}

/** The path of a script V8 ran from a file outside node_modules; undefined for anything else. */
function scriptFile(url: string): string | undefined {
  if (!url.startsWith('file:')) {
    return undefined
  }
  const file = fileURLToPath(url)
  return file.split(path.sep).includes('node_modules') ? undefined : file
}

/**
 * Whether the file on disk is the code V8 ran. Node records the line lengths of the code it ran for every script
 * with a source map; a loader's in-memory output differs from the file there. Without a record (no source map),
 * Node ran the file as it is.
 */
function isFileThatRan(file: string, lineLengths: readonly number[] | undefined): boolean {
  if (lineLengths === undefined) {
    return true
  }
  let lines: string[]
  try {
    // Split as Node counts them: at line feeds and the two Unicode line separators.
    lines = readFileSync(file, 'utf8').split(/\n|\u2028|\u2029/)
  } catch {
    return false // gone since the run: nothing to lay the counts over
  }
  return (
    lines.length === lineLengths.length && lines.every((line, index) => line.length === lineLengths[index])
  )
}
