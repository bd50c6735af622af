import { REA_VERSION } from '../version.js'
import { defaultText, optionSynopsis, positionalText, usageLine, type CommandTable } from './command-table.js'
import { COMMAND_NAMES, COMMAND_TABLES, commandTable, isCommandName } from './command-tables.js'

function overview(): string {
  const width = Math.max(...COMMAND_NAMES.map((name) => name.length))
  return [
    `rea ${REA_VERSION}: run a command in a real PTY and record honest Evidence of what it did`,
    '',
    'Usage: rea <command> [arguments] [options]',
    '',
    'Commands:',
    ...COMMAND_TABLES.map((table) => `  ${table.name.padEnd(width)}  ${table.summary}`),
    '',
    'Run `rea help <command>` (or `rea <command> --help`) for its arguments and every option, with its default',
    'and an example. Exit codes are listed in docs/cli.md#exit-codes.',
    '',
  ].join('\n')
}

/** A command's help, all of it from the table its parser reads: every argument, every option with its default and an example. */
export function commandHelp(table: CommandTable): string {
  const lines = [`rea ${table.name}: ${table.summary}`, '', `Usage: ${usageLine(table)}`]
  if (table.positionals.length > 0) {
    const shown = table.positionals.map(positionalText)
    const width = Math.max(...shown.map((text) => text.length))
    lines.push(
      '',
      table.positionalsAfterDoubleDash === true ? 'Arguments (after --):' : 'Arguments:',
      ...table.positionals.map(
        (entry, index) => `  ${(shown[index] ?? '').padEnd(width)}  ${entry.description}`,
      ),
    )
  }
  if (table.options.length > 0) {
    lines.push('', 'Options:')
    for (const entry of table.options) {
      const negation = entry.kind === 'value' && entry.negation !== undefined ? `, --no-${entry.name}` : ''
      lines.push(`  ${optionSynopsis(entry)}${negation}`, `      ${entry.description}`)
      if (entry.kind === 'value' && entry.negation !== undefined) {
        lines.push(`      --no-${entry.name}: ${entry.negation}`)
      }
      lines.push(`      Default: ${defaultText(entry)}`, `      Example: ${entry.example}`)
    }
  }
  for (const example of table.examples ?? []) {
    lines.push('', `Example: ${example}`)
  }
  lines.push('', `More: ${table.docs}. Exit codes: docs/cli.md#exit-codes.`, '')
  return lines.join('\n')
}

/**
 * What `rea` prints for a command line that only asks about REA (`--version`, `--help`, `help <command>`,
 * `<command> --help`), or undefined when the command line needs the engine. Answered from this small module
 * and the command tables, so these print as fast as Node starts.
 */
export function answerWithoutEngine(argv: readonly string[]): string | undefined {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' && rest[0] !== undefined && isCommandName(rest[0]) ? rest[0] : undefined
    return topic === undefined ? overview() : commandHelp(commandTable(topic))
  }
  if (name === '--version' || name === '-V') {
    return `${REA_VERSION}\n`
  }
  // What follows `--` belongs to the command `rea record` runs: `rea record -- tool --help` records tool's help.
  const end = rest.indexOf('--')
  const own = end === -1 ? rest : rest.slice(0, end)
  if (isCommandName(name) && (own.includes('--help') || own.includes('-h'))) {
    return commandHelp(commandTable(name))
  }
  return undefined
}
