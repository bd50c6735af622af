import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import * as z from 'zod'
import { rejectPendingCaptures } from '../../review/review-requests.js'
import { FILTERS_DESCRIPTION, pendingRequest } from '../pending-arguments.js'
import type { ReaTool } from '../tool.js'
import { toolResult } from '../tool-results.js'

const TOOL = 'reject_pending_captures'
const argumentsSchema = z.strictObject({
  filters: z.array(z.string().min(1)).optional().describe(FILTERS_DESCRIPTION),
})

export function rejectPendingCapturesTool(): ReaTool {
  return {
    name: TOOL,
    title: 'Reject pending captures',
    description:
      'Reject pending captures, as `rea review --reject [filters…] --json` does: each selected pending file is ' +
      'removed and its authority stays exactly as it is. Returns each outcome.',
    inputSchema: z.toJSONSchema(argumentsSchema, { io: 'input' }) as Tool['inputSchema'],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    // eslint-disable-next-line @typescript-eslint/require-await -- a tool's run is async; this one removes files only
    async run(args) {
      const result = rejectPendingCaptures(pendingRequest(TOOL, args, ['filters']))
      return toolResult(result.text, result.document)
    },
  }
}
