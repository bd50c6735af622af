#!/usr/bin/env node
import { createRequire } from 'node:module'
import { enableCompileCacheInTemporaryDirectory } from './compile-cache.js'
import { EXIT } from './exit-codes.js'
import type * as Run from './run.js'
import { answerWithoutEngine } from './help.js'
import { installSignalHandlers } from './signals.js'
import { ignoreWriteErrorsOnFirstUse } from './write-errors.js'

// This module is small on purpose: the signal handlers exist within milliseconds of start, while the command's
// bundle loads behind them (run.ts). A signal in that window then cancels like any other.
const signals = installSignalHandlers(process.argv[2])
ignoreWriteErrorsOnFirstUse('stdout')
ignoreWriteErrorsOnFirstUse('stderr')
// --version and --help need none of the engine: answered here, they print as fast as Node starts.
const answer = answerWithoutEngine(process.argv.slice(2))
if (answer !== undefined) {
  process.stdout.write(answer)
} else {
  // Node 22 and later keep a compile cache of their own, outside REA's package (in the temporary directory);
  // REA never writes into its installed files. Node 20 has none: the bundle is compiled on every run.
  enableCompileCacheInTemporaryDirectory()
  try {
    // The dispatcher and every command are one CommonJS bundle beside this entry (dist/cli/run.cjs).
    const { runCli } = createRequire(import.meta.url)('./run.cjs') as typeof Run
    void runCli(process.argv.slice(2), signals)
  } catch (error) {
    process.stderr.write(`rea: internal error: REA could not be loaded: ${String(error)}\n`)
    process.exitCode = EXIT.internalError
  }
}
