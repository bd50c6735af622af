import { statSync } from 'node:fs'
import module from 'node:module'
import { tmpdir } from 'node:os'

/** What `node:module` adds in Node 22.1 (Node 20 has no compile cache). */
interface CompileCacheModule {
  readonly enableCompileCache?: () => unknown
}

/**
 * Turns on Node's own compile cache (Node 22.1 and later) in the folder Node picks by default,
 * `<temporary directory>/node-compile-cache`, but only where that temporary directory exists: Node would create
 * a missing one, parents and all, and `rea` writes nowhere it does not document. `NODE_COMPILE_CACHE` (a folder the
 * user chose) and `NODE_DISABLE_COMPILE_CACHE` are read by Node itself and win over this call.
 */
export function enableCompileCacheInTemporaryDirectory(): void {
  const { enableCompileCache } = module as CompileCacheModule
  if (
    enableCompileCache !== undefined &&
    statSync(tmpdir(), { throwIfNoEntry: false })?.isDirectory() === true
  ) {
    enableCompileCache()
  }
}
