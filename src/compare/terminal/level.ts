import { ReaError, type ReaIssue } from '../../errors.js'
import { describeValue } from '../../internal/zod-issues.js'
import { TERMINAL_LEVELS, type TerminalLevel } from '../comparison-schema.js'

/**
 * The problems of a terminal comparison level given from outside (an option, a CLI flag, a tool argument):
 * `stream` (the normalized output, byte for byte, and the checkpoint frames as recorded) or `screens` (what the
 * screen shows at every checkpoint, cell by cell). `path` names the option in the issues.
 */
export function terminalLevelIssues(value: unknown, path: string): ReaIssue[] {
  return typeof value === 'string' && (TERMINAL_LEVELS as readonly string[]).includes(value)
    ? []
    : [
        {
          path,
          rule: typeof value === 'string' ? 'choice' : 'type',
          message: `must be ${TERMINAL_LEVELS.map((level) => JSON.stringify(level)).join(' or ')}: got ${describeValue(value)}`,
        },
      ]
}

/**
 * Reads a terminal comparison level given from outside, or throws INVALID_ARGUMENTS naming the option (`path`).
 * `subject` opens the message.
 *
 * @example
 * compareCaptures(authority, reconstruction, { terminal: parseTerminalLevel(input, 'terminal', 'my-tool') })
 */
export function parseTerminalLevel(value: unknown, path: string, subject: string): TerminalLevel {
  const issues = terminalLevelIssues(value, path)
  if (issues.length > 0) {
    throw new ReaError('INVALID_ARGUMENTS', `${subject}: the terminal comparison level is not valid.`, {
      issues,
    })
  }
  return value as TerminalLevel
}
