#!/usr/bin/env node
import { EXIT } from './exit-codes.js'
import { answerWithoutEngine } from './help.js'
import { installSignalHandlers } from './signals.js'

// This module is small on purpose: the signal handlers exist within milliseconds of start, while the command's
// bundle loads behind them (run.ts). A signal in that window then cancels like any other.
const signals = installSignalHandlers(process.argv[2])
// A closed terminal or pipe fails writes with EIO or EPIPE. Write callbacks handle that where it matters (the
// final document); without these listeners Node would instead crash on the stream's 'error' event.
process.stdout.on('error', () => undefined)
process.stderr.on('error', () => undefined)
// --version and --help need none of the engine: answered here, they print as fast as Node starts.
const answer = answerWithoutEngine(process.argv.slice(2))
if (answer !== undefined) {
  process.stdout.write(answer)
} else {
  void import('./run.js').then(
    ({ runCli }) => runCli(process.argv.slice(2), signals),
    (error: unknown) => {
      process.stderr.write(`rea: internal error: REA could not be loaded: ${String(error)}\n`)
      process.exitCode = EXIT.internalError
    },
  )
}
