import { createHash } from 'node:crypto'
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import Module, { createRequire } from 'node:module'
import path from 'node:path'
import { Script } from 'node:vm'

/** What the code cache beside a bundle did for this load: used, missing, or made for another source or V8. */
export type CodeCacheUse = 'used' | 'absent' | 'rejected'

export interface LoadedBundle {
  readonly exports: Record<string, unknown>
  readonly cache: CodeCacheUse
  /**
   * Writes the code cache when this load had none it could use. Called after the command ran, the cache also holds
   * the functions the run compiled, not only the module's top level. Never throws: a folder REA cannot write to
   * (a read-only install) just means every run compiles.
   */
  readonly saveCache: () => void
}

/** The cache starts with the SHA-256 of the source it was made from. */
const SOURCE_DIGEST_BYTES = 32

/**
 * Loads one of the CLI's CommonJS bundles (`dist/cli/<command>.cjs`), compiled from a V8 code cache kept beside it
 * as `<command>.cjs.cache`.
 *
 * Node 20 caches the compilation of its own modules only; compiling a command's bundle (zod, the schemas and the
 * engine, about 400 KB) cost every `rea` process 10–15 ms, a tenth of its run. A `vm.Script` takes a cache V8
 * made earlier. V8 checks the cache against its own version and flags and the source's length, not its content,
 * so the cache starts with the source's digest, and a cache for other content is rejected like any other.
 *
 * A script compiled this way has no module loader behind it, so the bundles hold no dynamic `import()` (a test of
 * the built package checks it): CommonJS dependencies are required, ESM-only ones bundled.
 */
export function loadBundle(file: string): LoadedBundle {
  const bytes = readFileSync(file)
  // The bytes, not the decoded text: hashing a string takes Node's slow path (4 ms instead of 0.5 for 400 KB).
  const digest = createHash('sha256').update(bytes).digest()
  const source = bytes.toString('utf8')
  const cacheFile = `${file}.cache`
  const cachedData = readCache(cacheFile, digest)
  const script = new Script(Module.wrap(source), {
    filename: file,
    ...(typeof cachedData === 'string' ? {} : { cachedData }),
  })
  const cache: CodeCacheUse =
    typeof cachedData === 'string' ? cachedData : script.cachedDataRejected === true ? 'rejected' : 'used'
  const module = { exports: {} as Record<string, unknown> }
  const compiled = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
  ) => void
  compiled(module.exports, createRequire(file), module, file, path.dirname(file))
  return {
    exports: module.exports,
    cache,
    saveCache: () => {
      if (cache !== 'used') {
        writeCache(cacheFile, Buffer.concat([digest, script.createCachedData()]))
      }
    },
  }
}

function readCache(cacheFile: string, digest: Buffer): Buffer | 'absent' | 'rejected' {
  let data: Buffer
  try {
    data = readFileSync(cacheFile)
  } catch {
    return 'absent'
  }
  // A cache for other content (an edited or rebuilt bundle of the same length) would pass V8's own check.
  return data.subarray(0, SOURCE_DIGEST_BYTES).equals(digest)
    ? data.subarray(SOURCE_DIGEST_BYTES)
    : 'rejected'
}

function writeCache(cacheFile: string, data: Buffer): void {
  // Written aside and renamed: a rea process starting meanwhile reads the old cache or the new one, never half.
  const temporary = `${cacheFile}.${process.pid}.tmp`
  try {
    writeFileSync(temporary, data)
    renameSync(temporary, cacheFile)
  } catch {
    try {
      rmSync(temporary, { force: true })
    } catch {
      // Nothing was written, or it cannot be removed either; the next run compiles and tries again.
    }
  }
}
