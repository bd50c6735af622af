/**
 * A command's table: its arguments and options, each with what `--help` says of it. The parser reads the same
 * table (`parse-command-line.ts`), so help cannot drift from what `rea` accepts, and an option is added by adding
 * its entry. Tables hold plain data and import nothing of the engine: `rea --help` loads them without it.
 */

/** An option that is on or off (`--json`); off unless given. */
export interface FlagEntry {
  readonly kind: 'flag'
  /** The long name, without dashes. */
  readonly name: string
  /** One letter, for `-x`. */
  readonly short?: string
  /** One line: what the option does. */
  readonly description: string
  /** A whole command line that uses it; a test parses every example with this table. */
  readonly example: string
}

/** An option that takes a value (`--format json`, `--output=file`). */
export interface ValueEntry {
  readonly kind: 'value'
  readonly name: string
  readonly short?: string
  /** How the value is written in help (`<file>`, `tolerant|strict|…`) where it has no `choices`, which are shown. */
  readonly value?: string
  /** The only values accepted; checked by the parser, listed by help. */
  readonly choices?: readonly string[]
  /** The value when the option is not given; the parser supplies it. */
  readonly default?: string
  /** The default in words, where it is no value the parser could supply (stdout, a name made from the program). */
  readonly defaultText?: string
  /** `--no-<name>` is accepted and makes the value `false`; its line in help. */
  readonly negation?: string
  /**
   * Values that take the next word too: with `['event']`, `--at event 3` reads as the value `event 3` (the same
   * as `--at "event 3"`).
   */
  readonly joinsNextWordAfter?: readonly string[]
  /** Given any number of times (`--secret a --secret b`); the value is every one in order, none when not given. */
  readonly repeatable?: true
  readonly description: string
  readonly example: string
}

export type OptionEntry = FlagEntry | ValueEntry

/** An argument given by position. */
export interface PositionalEntry {
  /** As help shows it: `scenario.json`. */
  readonly name: string
  readonly description: string
  readonly optional?: boolean
  /** Takes every argument left (only the last one). */
  readonly variadic?: boolean
  /** The only values accepted (checked by the parser). */
  readonly choices?: readonly string[]
}

export interface CommandTable {
  readonly name: string
  /** One line for `rea --help`'s list of commands. */
  readonly summary: string
  readonly positionals: readonly PositionalEntry[]
  /** The positionals are a command line of their own, written after `--` (`rea record`). */
  readonly positionalsAfterDoubleDash?: boolean
  readonly options: readonly OptionEntry[]
  /** Whole command lines for a command with no option to show one with; parsed by the same test. */
  readonly examples?: readonly string[]
  /** Where the command is described in full. */
  readonly docs: string
}

/** The parsed value of one option: typed from its entry, so a command reads exactly what its table declares. */
export type EntryValue<E> = E extends { readonly kind: 'flag' }
  ? boolean
  : E extends { readonly repeatable: true }
    ? readonly string[]
    : | (E extends { readonly choices: readonly (infer C extends string)[] } ? C : string)
      | (E extends { readonly default: string } ? never : undefined)
      | (E extends { readonly negation: string } ? false : never)

/** Every option of a table by its long name. */
export type OptionValues<T extends CommandTable> = {
  readonly [E in T['options'][number] as E['name']]: EntryValue<E>
}

/** `--format toon|json|summary`, `-o, --output <file>`: how an option is written. */
export function optionSynopsis(entry: OptionEntry): string {
  const names = `${entry.short === undefined ? '' : `-${entry.short}, `}--${entry.name}`
  return entry.kind === 'flag' ? names : `${names} ${valueText(entry)}`
}

function valueText(entry: ValueEntry): string {
  return entry.choices?.join('|') ?? entry.value ?? '<value>'
}

/** `<scenario.json>`, `[trace.json]`, `[arguments…]`, `scenario|evidence`: how an argument is written. */
export function positionalText(entry: PositionalEntry): string {
  if (entry.choices !== undefined) {
    return entry.choices.join('|')
  }
  const name = `${entry.name}${entry.variadic === true ? '…' : ''}`
  return entry.optional === true ? `[${name}]` : `<${name}>`
}

/** The command's one-line usage, every option in it: what an error about the command line repeats. */
export function usageLine(table: CommandTable): string {
  const options = table.options.map((entry) => {
    const long = entry.kind === 'flag' ? `--${entry.name}` : `--${entry.name} ${valueText(entry)}`
    return entry.kind === 'value' && entry.negation !== undefined
      ? `[${long} | --no-${entry.name}]`
      : `[${long}]${entry.kind === 'value' && entry.repeatable === true ? '…' : ''}`
  })
  const positionals = table.positionals.map(positionalText)
  return [
    `rea ${table.name}`,
    ...(table.positionalsAfterDoubleDash === true ? [] : positionals),
    ...options,
    ...(table.positionalsAfterDoubleDash === true ? ['--', ...positionals] : []),
  ].join(' ')
}

/** The default as help states it: `toon`, `off`, `stdout`. */
export function defaultText(entry: OptionEntry): string {
  if (entry.kind === 'flag') {
    return 'off'
  }
  return entry.default ?? entry.defaultText ?? 'none'
}
