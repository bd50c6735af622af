import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import * as z from 'zod'
import { listPendingCaptures } from '../../review/review-requests.js'
import { FILTERS_DESCRIPTION, pendingRequest } from '../pending-arguments.js'
import { READ_ONLY_ANNOTATIONS, type ReaTool } from '../tool.js'
import { toolResult } from '../tool-results.js'

const TOOL = 'list_pending_captures'
const argumentsSchema = z.strictObject({
  filters: z.array(z.string().min(1)).optional().describe(FILTERS_DESCRIPTION),
})

export function listPendingCapturesTool(): ReaTool {
  return {
    name: TOOL,
    title: 'List pending captures',
    description:
      'List the pending captures in the project, as `rea review --list --json` does: the captures a local test ' +
      'run kept beside an authority it did not match, waiting to be accepted or rejected. Each has its pending ' +
      'path, the authority it would replace, its test (file and name, when the authority is a default one), its ' +
      'state (ready, authority_changed, authority_missing, unreadable, refused, carries_unknowns) with what to do ' +
      'when not ready, and the verdict of each dimension against the authority. An empty list when nothing is pending.',
    inputSchema: z.toJSONSchema(argumentsSchema, { io: 'input' }) as Tool['inputSchema'],
    annotations: READ_ONLY_ANNOTATIONS,
    // eslint-disable-next-line @typescript-eslint/require-await -- a tool's run is async; this one reads files only
    async run(args) {
      const result = listPendingCaptures(pendingRequest(TOOL, args, ['filters']))
      return toolResult(result.text, result.document)
    },
  }
}
