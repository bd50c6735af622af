import { escapeControlCharacters, formatReaError, isReaError, ReaError } from '../index.js'
import type { Command, CommandContext } from './arguments.js'
import { COMMAND_NAMES, isCommandName, type CommandName } from './command-text.js'
import { EXIT, EXIT_CODE_BY_ERROR } from './exit-codes.js'
import type { SignalCancellation } from './signals.js'

/** Each command loads only when it runs: `rea capture-process` never loads the MCP SDK or the page builder. */
const LOAD_COMMAND: Record<CommandName, () => Promise<Command>> = {
  'capture-process': async () => (await import('./commands/capture-process.js')).captureProcessCommand,
  'compare-process-captures': async () =>
    (await import('./commands/compare-process-captures.js')).compareProcessCapturesCommand,
  view: async () => (await import('./commands/view.js')).viewCommand,
  export: async () => (await import('./commands/export.js')).exportCommand,
  schema: async () => (await import('./commands/schema.js')).schemaCommand,
  capabilities: async () => (await import('./commands/capabilities.js')).capabilitiesCommand,
  mcp: async () => (await import('./commands/mcp.js')).mcpCommand,
}

async function main(argv: string[], context: CommandContext): Promise<number> {
  const [name = '', ...rest] = argv
  if (!isCommandName(name)) {
    throw new ReaError('INVALID_ARGUMENTS', `Unknown command "${name}".`, {
      hint: `Commands: ${COMMAND_NAMES.join(', ')}. Run \`rea --help\` for details.`,
    })
  }
  const command = await LOAD_COMMAND[name]()
  return command.run(rest, context)
}

function reportFailure(error: unknown): number {
  if (isReaError(error)) {
    process.stderr.write(`rea: ${formatReaError(error)}\n`)
    return EXIT_CODE_BY_ERROR[error.code]
  }
  const detail = escapeControlCharacters(error instanceof Error ? error.message : String(error))
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
