import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import * as z from 'zod'
import { showPendingCapture } from '../../review/review-requests.js'
import { projectRequest } from '../pending-arguments.js'
import { READ_ONLY_ANNOTATIONS, type ReaTool } from '../tool.js'
import { invalidArguments, pathIssues, unknownFieldIssues } from '../tool-arguments.js'
import { toolResult } from '../tool-results.js'

const TOOL = 'show_pending_capture'
const argumentsSchema = z.strictObject({
  pending: z
    .string()
    .min(1)
    .describe(
      'The pending capture: its path relative to the project folder, or a test name that selects only it.',
    ),
})

export function showPendingCaptureTool(): ReaTool {
  return {
    name: TOOL,
    title: 'Show a pending capture',
    description:
      'Show one pending capture against the authority it would replace, as `rea review --show <pending> --json` ' +
      'does: its entry (paths, test, state, dimension verdicts), the diff of the two review sections (screens with ' +
      'their styles, output lines, events, exit, files: what a pull request would show) and the comparison ' +
      'document. Changes nothing.',
    inputSchema: z.toJSONSchema(argumentsSchema, { io: 'input' }) as Tool['inputSchema'],
    annotations: READ_ONLY_ANNOTATIONS,
    // eslint-disable-next-line @typescript-eslint/require-await -- a tool's run is async; this one reads files only
    async run(args) {
      const issues = [...unknownFieldIssues(args, ['pending']), ...pathIssues('pending', args['pending'])]
      if (issues.length > 0) {
        throw invalidArguments(TOOL, issues, 'nothing was shown')
      }
      const result = showPendingCapture(projectRequest([args['pending'] as string]))
      return toolResult(result.text, result.document)
    },
  }
}
