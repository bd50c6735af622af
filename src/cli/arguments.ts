import { parseArgs, type ParseArgsConfig } from 'node:util'
import { ReaError } from '../errors.js'
import type { SignalCancellation } from './signals.js'

/** What every command gets besides its arguments. */
export interface CommandContext {
  /** Cancellation by SIGINT, SIGTERM or SIGHUP, for the commands that handle signals. */
  readonly signals: SignalCancellation
}

/** A command as `rea` runs it; its name and summary live in `command-text.ts`, which help reads alone. */
export interface Command {
  readonly usage: string
  run(argv: string[], context: CommandContext): Promise<number>
}

type Options = NonNullable<ParseArgsConfig['options']>

/** `util.parseArgs` with its errors turned into INVALID_ARGUMENTS that repeat the command's usage. */
export function parseCommandArguments<T extends Options>(
  command: Pick<Command, 'usage'>,
  argv: string[],
  options: T,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true, allowNegative: true })
  } catch (error) {
    throw new ReaError('INVALID_ARGUMENTS', `${(error as Error).message.replace(/\. To specify.*$/s, '')}.`, {
      cause: error,
      hint: `Usage: ${command.usage}`,
    })
  }
}

export function requirePositionals(
  command: Pick<Command, 'usage'>,
  positionals: string[],
  names: readonly string[],
  optional = 0,
): void {
  if (positionals.length < names.length - optional || positionals.length > names.length) {
    const expected = optional === 0 ? `${names.length}` : `${names.length - optional} to ${names.length}`
    throw new ReaError(
      'INVALID_ARGUMENTS',
      `Expected ${expected} argument${names.length === 1 ? '' : 's'} (${names.join(', ')}), got ${positionals.length}.`,
      {
        hint: `Usage: ${command.usage}`,
      },
    )
  }
}

export function oneOf<T extends string>(value: string, choices: readonly T[], option: string): T {
  if ((choices as readonly string[]).includes(value)) {
    return value as T
  }
  throw new ReaError('INVALID_ARGUMENTS', `${option} must be one of ${choices.join(', ')}: got "${value}".`)
}
