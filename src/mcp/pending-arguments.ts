import type { ReaIssue } from '../errors.js'
import type { ReviewRequest } from '../review/review-requests.js'
import {
  describeArgument,
  invalidArguments,
  pathIssues,
  unknownFieldIssues,
  type ToolArguments,
} from './tool-arguments.js'

/** What the pending-capture tools' texts name as the command that does the same at a prompt. */
const COMMAND = 'rea review'

/**
 * The selection every pending-capture tool takes: `filters`, an array of test names, files or paths, checked like
 * paths (non-empty, no NUL). The server's current directory is the project folder: the search starts there, paths
 * resolve against it, and a path outside it is refused.
 */
export function pendingRequest(
  tool: string,
  args: ToolArguments,
  fields: readonly string[],
  booleans: readonly string[] = [],
): ReviewRequest {
  const issues: ReaIssue[] = unknownFieldIssues(args, fields)
  const filters = args['filters']
  if (filters !== undefined) {
    if (!Array.isArray(filters)) {
      issues.push({
        path: 'filters',
        rule: 'type',
        message: `must be an array of strings: got ${describeArgument(filters)}`,
      })
    } else {
      filters.forEach((filter, index) => issues.push(...pathIssues(`filters[${index}]`, filter)))
    }
  }
  for (const name of booleans) {
    const value = args[name]
    if (value !== undefined && typeof value !== 'boolean') {
      issues.push({
        path: name,
        rule: 'type',
        message: `must be true or false: got ${describeArgument(value)}`,
      })
    }
  }
  if (issues.length > 0) {
    throw invalidArguments(tool, issues, 'no pending capture was touched')
  }
  return projectRequest((filters as string[] | undefined) ?? [])
}

/** A request in the server's project folder, confined to it. */
export function projectRequest(filters: readonly string[]): ReviewRequest {
  const cwd = process.cwd()
  return { filters, cwd, confine: cwd, command: COMMAND }
}

export const FILTERS_DESCRIPTION =
  'Test names (or a part of one), test files, authority files, pending captures or folders, relative to the ' +
  'project folder (the server’s current directory); a pending capture is taken when any filter selects it. ' +
  'Omitted or empty: every pending capture in the project.'
