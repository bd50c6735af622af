import { errorMessage } from '../internal/error-message.js'
/** The ways an event can wait for what the program shows; exactly one per `after`. */
export const WAIT_CONDITIONS = ['output', 'output_regex', 'screen', 'screen_regex', 'gone'] as const
export type WaitConditionKind = (typeof WAIT_CONDITIONS)[number]

/** Conditions read from the live screen rather than the output stream. */
export const SCREEN_CONDITIONS: readonly WaitConditionKind[] = ['screen', 'screen_regex', 'gone']

/** A condition as written in a scenario's `after`. */
export interface WaitConditionInput {
  readonly output?: string | undefined
  readonly output_regex?: string | undefined
  readonly screen?: string | undefined
  readonly screen_regex?: string | undefined
  readonly gone?: string | undefined
  readonly quiet_ms?: number | undefined
  readonly within_ms?: number | undefined
}

/** The one condition an `after` names, with its text, or null when it names none or several. */
export function conditionOf(
  after: WaitConditionInput,
): { readonly kind: WaitConditionKind; readonly text: string } | null {
  const named = WAIT_CONDITIONS.filter((kind) => typeof after[kind] === 'string')
  const [kind] = named
  return named.length === 1 && kind !== undefined ? { kind, text: after[kind] as string } : null
}

/**
 * A regex source compiled as REA uses it: JavaScript syntax with the flags `u` (Unicode rules) and `m` (`^`
 * and `$` match at every line start and end, so `^> ` finds a prompt at the start of any line).
 */
export const WAIT_REGEX_FLAGS = 'mu'

export function compileWaitRegex(source: string): { readonly regex: RegExp } | { readonly error: string } {
  try {
    return { regex: new RegExp(source, WAIT_REGEX_FLAGS) }
  } catch (error) {
    return { error: errorMessage(error) }
  }
}
