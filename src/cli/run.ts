import { escapeControlCharacters, formatReaError, isReaError, REA_VERSION, ReaError } from '../index.js'
import type { Command, CommandContext } from './arguments.js'
import { capabilitiesCommand } from './commands/capabilities.js'
import { captureProcessCommand } from './commands/capture-process.js'
import { compareProcessCapturesCommand } from './commands/compare-process-captures.js'
import { exportCommand } from './commands/export.js'
import { mcpCommand } from './commands/mcp.js'
import { schemaCommand } from './commands/schema.js'
import { viewCommand } from './commands/view.js'
import { EXIT, EXIT_CODE_BY_ERROR } from './exit-codes.js'
import type { SignalCancellation } from './signals.js'

const COMMANDS: readonly Command[] = [
  captureProcessCommand,
  compareProcessCapturesCommand,
  viewCommand,
  exportCommand,
  schemaCommand,
  capabilitiesCommand,
  mcpCommand,
]

function helpText(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length))
  return [
    `rea ${REA_VERSION}: run a command in a real PTY and record honest Evidence of what it did`,
    '',
    'Commands:',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'Run `rea <command> --help` for a command’s options. Exit codes are listed in docs/cli.md.',
    '',
  ].join('\n')
}

async function main(argv: string[], context: CommandContext): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? COMMANDS.find((command) => command.name === rest[0]) : undefined
    process.stdout.write(topic === undefined ? helpText() : `Usage: ${topic.usage}\n`)
    return EXIT.ok
  }
  if (name === '--version' || name === '-V') {
    process.stdout.write(`${REA_VERSION}\n`)
    return EXIT.ok
  }
  const command = COMMANDS.find((candidate) => candidate.name === name)
  if (command === undefined) {
    throw new ReaError('INVALID_ARGUMENTS', `Unknown command "${name}".`, {
      hint: `Commands: ${COMMANDS.map((candidate) => candidate.name).join(', ')}. Run \`rea --help\` for details.`,
    })
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.summary}\n\nUsage: ${command.usage}\n`)
    return EXIT.ok
  }
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
