import { REA_VERSION } from '../version.js'
import { COMMAND_NAMES, COMMAND_TEXT, isCommandName } from './command-text.js'

function helpText(): string {
  const width = Math.max(...COMMAND_NAMES.map((name) => name.length))
  return [
    `rea ${REA_VERSION}: run a command in a real PTY and record honest Evidence of what it did`,
    '',
    'Commands:',
    ...COMMAND_NAMES.map((name) => `  ${name.padEnd(width)}  ${COMMAND_TEXT[name].summary}`),
    '',
    'Run `rea <command> --help` for a command’s options. Exit codes are listed in docs/cli.md.',
    '',
  ].join('\n')
}

/**
 * What `rea` prints for a command line that only asks about REA (`--version`, `--help`, `help <command>`,
 * `<command> --help`), or undefined when the command line needs the engine. Answered from this small module
 * so these print as fast as Node starts.
 */
export function answerWithoutEngine(argv: readonly string[]): string | undefined {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' && rest[0] !== undefined && isCommandName(rest[0]) ? rest[0] : undefined
    return topic === undefined ? helpText() : `Usage: ${COMMAND_TEXT[topic].usage}\n`
  }
  if (name === '--version' || name === '-V') {
    return `${REA_VERSION}\n`
  }
  // What follows `--` belongs to the command `rea record` runs: `rea record -- tool --help` records tool's help.
  const end = rest.indexOf('--')
  const own = end === -1 ? rest : rest.slice(0, end)
  if (isCommandName(name) && (own.includes('--help') || own.includes('-h'))) {
    const { summary, usage } = COMMAND_TEXT[name]
    return `${summary}\n\nUsage: ${usage}\n`
  }
  return undefined
}
