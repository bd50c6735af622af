import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import * as z from 'zod'
import { acceptPendingCaptures } from '../../review/review-requests.js'
import { FILTERS_DESCRIPTION, pendingRequest } from '../pending-arguments.js'
import type { ReaTool } from '../tool.js'
import { toolResult } from '../tool-results.js'

const TOOL = 'accept_pending_captures'
const argumentsSchema = z.strictObject({
  filters: z.array(z.string().min(1)).optional().describe(FILTERS_DESCRIPTION),
  force: z
    .boolean()
    .default(false)
    .describe('Accept even when the authority changed after the capture was compared with it, or is gone.'),
  record_unfinished: z
    .boolean()
    .default(false)
    .describe(
      'Accept a capture that did not run as its scenario expects (a skipped wait, a deadline), as recordUnfinished does.',
    ),
})

export function acceptPendingCapturesTool(): ReaTool {
  return {
    name: TOOL,
    title: 'Accept pending captures',
    description:
      'Accept pending captures, as `rea review --accept [filters…] --json` does: each selected one becomes its ' +
      'authority (written whole, in the review layout) and its pending file is removed. A capture is refused, ' +
      'leaving both files as they are, when it cannot be read, when its authority changed since it was compared ' +
      'or is gone (unless force), or when it could not stand as an authority (unless record_unfinished); the ' +
      'others are still accepted. Returns each outcome (accepted or refused, with why and what to do).',
    inputSchema: z.toJSONSchema(argumentsSchema, { io: 'input' }) as Tool['inputSchema'],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    // eslint-disable-next-line @typescript-eslint/require-await -- a tool's run is async; this one writes files only
    async run(args) {
      const request = pendingRequest(
        TOOL,
        args,
        ['filters', 'force', 'record_unfinished'],
        ['force', 'record_unfinished'],
      )
      const result = acceptPendingCaptures(request, {
        force: args['force'] === true,
        recordUnfinished: args['record_unfinished'] === true,
      })
      return toolResult(result.text, result.document)
    },
  }
}
