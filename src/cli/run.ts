import { startSupervisor } from '../process/supervisor.js'
import { formatReaError, isReaError, ReaError } from '../errors.js'
import { errorMessage } from '../internal/error-message.js'
import { escapeControlCharacters } from '../internal/escape-controls.js'
import type { Command, CommandContext } from './arguments.js'
import { COMMAND_NAMES, isCommandName, type CommandName } from './command-tables.js'
import { EXIT, EXIT_CODE_BY_ERROR } from './exit-codes.js'
import type { SignalCancellation } from './signals.js'

/**
 * Each command's module is evaluated only when it runs (`rea capture-process` never loads the MCP SDK or the page
 * builder): in the built CLI, a literal `import()` becomes a lazily evaluated module. The other commands come from
 * more-commands.ts, a bundle of their own that takes the engine from this one. The CLI runs only as built: from its
 * sources, the commands are tested through the library they call.
 */
async function loadCommand(name: CommandName): Promise<{ readonly command: Command }> {
  if (name === 'capture-process') {
    return await import('./commands/capture-process.js')
  }
  const { MORE_COMMANDS } = await import('./more-commands.js')
  return await MORE_COMMANDS[name]()
}

async function main(argv: string[], context: CommandContext): Promise<number> {
  const [name = '', ...rest] = argv
  if (!isCommandName(name)) {
    throw new ReaError('INVALID_ARGUMENTS', `Unknown command "${name}".`, {
      hint: `Commands: ${COMMAND_NAMES.join(', ')}. Run \`rea --help\` for details.`,
    })
  }
  if (name === 'capture-process') {
    // Its boot then overlaps the command's loading instead of the capture (src/process/supervisor.ts).
    startSupervisor()
  }
  const { command } = await loadCommand(name)
  // The command loaded synchronously, so a signal that came meanwhile still waits in the event loop: one turn lets
  // its handler run, and a capture cancelled that early then starts nothing.
  await new Promise((resolve) => setImmediate(resolve))
  return await command.run(rest, context)
}

function reportFailure(error: unknown): number {
  if (isReaError(error)) {
    process.stderr.write(`rea: ${formatReaError(error)}\n`)
    return EXIT_CODE_BY_ERROR[error.code]
  }
  const detail = escapeControlCharacters(errorMessage(error))
  process.stderr.write(
    `rea: internal error: ${detail}\nThis is a bug in REA; please report it with the command you ran.` +
      `${process.env['REA_DEBUG'] === '1' && error instanceof Error ? `\n${error.stack ?? ''}` : ' Set REA_DEBUG=1 to include the stack trace.'}\n`,
  )
  return EXIT.internalError
}

/** Runs one `rea` command line and sets the process's exit code; `signals` are the entry's handlers. */
export async function runCli(argv: string[], signals: SignalCancellation): Promise<void> {
  try {
    process.exitCode = await main(argv, { signals })
  } catch (error) {
    process.exitCode = reportFailure(error)
  }
}
