import type { TerminalLevel } from '../compare/comparison-schema.js'
import { parseTerminalLevel } from '../compare/terminal/level.js'

/** `--terminal stream|screens`; a bad value is INVALID_ARGUMENTS naming `--terminal`. `command` opens the message. */
export function terminalFlag(text: string | undefined, command: string): TerminalLevel {
  return parseTerminalLevel(text ?? 'stream', '--terminal', `${command} --terminal`)
}

/** How the CLI's text names the screens level, where a stream comparison failed while every screen is equal. */
export const SCREENS_FLAG = '--terminal screens'
