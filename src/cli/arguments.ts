import { parseArgs, type ParseArgsConfig } from 'node:util'
import { ReaError } from '../errors.js'
import { quoteText } from '../internal/escape-controls.js'
import { usageLine, type CommandTable, type OptionEntry, type OptionValues } from './command-table.js'
import type { SignalCancellation } from './signals.js'

/** What every command gets besides its arguments. */
export interface CommandContext {
  /** Cancellation by SIGINT, SIGTERM or SIGHUP, for the commands that handle signals. */
  readonly signals: SignalCancellation
}

/** A command as `rea` runs it; what it accepts is its table (`tables/`), which help reads alone. */
export interface Command {
  run(argv: string[], context: CommandContext): Promise<number>
}

export interface ParsedCommandLine<T extends CommandTable> {
  readonly values: OptionValues<T>
  readonly positionals: readonly string[]
}

/** The hint every error about a command line ends with. */
export function usageHint(table: CommandTable): string {
  return `Usage: ${usageLine(table)}\nRun \`rea ${table.name} --help\` for every option.`
}

function invalid(table: CommandTable, message: string, cause?: unknown): ReaError {
  return new ReaError('INVALID_ARGUMENTS', message, {
    hint: usageHint(table),
    ...(cause === undefined ? {} : { cause }),
  })
}

/**
 * Parses a command line against the command's table, the same table `--help` prints: exactly its options are
 * accepted, a value outside an option's choices is refused naming them, absent options take their defaults, and
 * the number of positionals is checked. Every refusal is INVALID_ARGUMENTS with the usage as its hint.
 */
export function parseCommandLine<const T extends CommandTable>(
  table: T,
  argv: readonly string[],
): ParsedCommandLine<T> {
  const { args, negated } = prepareArguments(table, argv)
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({ args, options: parseArgsOptions(table), allowPositionals: true, strict: true })
  } catch (error) {
    throw invalid(table, `${(error as Error).message.replace(/\. To specify.*$/s, '')}.`, error)
  }
  const values: Record<string, unknown> = {}
  for (const entry of table.options) {
    const given = parsed.values[entry.name]
    values[entry.name] = negated.has(entry.name)
      ? false
      : given === undefined && entry.kind === 'value'
        ? entry.repeatable === true
          ? []
          : entry.default
        : (given ?? (entry.kind === 'flag' ? false : undefined))
    checkChoices(
      table,
      `--${entry.name}`,
      values[entry.name],
      entry.kind === 'value' ? entry.choices : undefined,
    )
  }
  checkPositionals(table, parsed.positionals)
  return { values: values as OptionValues<T>, positionals: parsed.positionals }
}

function parseArgsOptions(table: CommandTable): NonNullable<ParseArgsConfig['options']> {
  return Object.fromEntries(
    table.options.map((entry: OptionEntry) => [
      entry.name,
      {
        type: entry.kind === 'flag' ? ('boolean' as const) : ('string' as const),
        ...(entry.kind === 'value' && entry.repeatable === true ? { multiple: true } : {}),
        ...(entry.short === undefined ? {} : { short: entry.short }),
      },
    ]),
  )
}

/**
 * What `util.parseArgs` cannot read itself: `--no-<name>` of a value option (taken out, its value becomes false)
 * and a value that takes the next word (`--at event 3`, joined into one value). Arguments after `--` are left
 * alone: they belong to the command `rea record` runs.
 */
function prepareArguments(
  table: CommandTable,
  argv: readonly string[],
): { args: string[]; negated: Set<string> } {
  const args: string[] = []
  const negated = new Set<string>()
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string
    if (argument === '--') {
      args.push(...argv.slice(index))
      break
    }
    const negation = table.options.find(
      (entry) => entry.kind === 'value' && entry.negation !== undefined && argument === `--no-${entry.name}`,
    )
    if (negation !== undefined) {
      negated.add(negation.name)
      continue
    }
    const joining = table.options.find(
      (entry) =>
        entry.kind === 'value' && entry.joinsNextWordAfter !== undefined && argument === `--${entry.name}`,
    )
    const value = argv[index + 1]
    const next = argv[index + 2]
    if (
      joining?.kind === 'value' &&
      value !== undefined &&
      next !== undefined &&
      joining.joinsNextWordAfter?.includes(value) === true
    ) {
      args.push(`--${joining.name}=${value} ${next}`)
      index += 2
      continue
    }
    args.push(argument)
  }
  return { args, negated }
}

function checkChoices(
  table: CommandTable,
  what: string,
  value: unknown,
  choices: readonly string[] | undefined,
): void {
  if (choices !== undefined && typeof value === 'string' && !choices.includes(value)) {
    throw invalid(table, `${what} must be one of ${choices.join(', ')}: got ${quoteText(value)}.`)
  }
}

function checkPositionals(table: CommandTable, positionals: readonly string[]): void {
  const names = table.positionals.map((entry) => entry.name)
  const required = table.positionals.filter((entry) => entry.optional !== true).length
  const variadic = table.positionals.at(-1)?.variadic === true
  if (positionals.length < required || (!variadic && positionals.length > names.length)) {
    if (table.positionalsAfterDoubleDash === true && positionals.length < required) {
      throw invalid(table, `rea ${table.name} needs the command to ${table.name}, after \`--\`.`)
    }
    const expected =
      required === names.length
        ? `${required}`
        : variadic
          ? `at least ${required}`
          : `${required} to ${names.length}`
    throw invalid(
      table,
      `Expected ${expected} argument${names.length === 1 ? '' : 's'} (${names.join(', ')}), got ${positionals.length}.`,
    )
  }
  table.positionals.forEach((entry, index) => {
    checkChoices(table, `the ${entry.name}`, positionals[index], entry.choices)
  })
}
