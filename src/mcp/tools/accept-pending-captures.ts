import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import * as z from 'zod'
import { acceptPendingCaptures } from '../../review/review-requests.js'
import { FILTERS_DESCRIPTION, pendingRequest } from '../pending-arguments.js'
import type { ReaTool } from '../tool.js'
import { describeArgument, invalidArguments } from '../tool-arguments.js'
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
  accept_unknowns: z
    .array(z.string().min(1))
    .default([])
    .describe(
      'Reason codes of unknowns the new authority may carry (unrelated_process_unverified, drain_incomplete …), as acceptUnknowns does; any other unknown refuses the capture.',
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
      'or is gone (unless force), when it could not stand as an authority (unless record_unfinished), or when ' +
      'the authority would carry an unknown whose reason accept_unknowns does not name; the ' +
      'others are still accepted. Returns each outcome (accepted or refused, with why and what to do).',
    inputSchema: z.toJSONSchema(argumentsSchema, { io: 'input' }) as Tool['inputSchema'],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    // eslint-disable-next-line @typescript-eslint/require-await -- a tool's run is async; this one writes files only
    async run(args) {
      const request = pendingRequest(
        TOOL,
        args,
        ['filters', 'force', 'record_unfinished', 'accept_unknowns'],
        ['force', 'record_unfinished'],
      )
      const result = acceptPendingCaptures(request, {
        force: args['force'] === true,
        recordUnfinished: args['record_unfinished'] === true,
        acceptUnknowns: acceptedReasons(args['accept_unknowns']),
      })
      return toolResult(result.text, result.document)
    },
  }
}

/** `accept_unknowns`: reason codes, each a non-empty string; anything else is refused before a file is touched. */
function acceptedReasons(value: unknown): readonly string[] {
  if (value === undefined) {
    return []
  }
  if (Array.isArray(value) && value.every((reason) => typeof reason === 'string' && reason !== '')) {
    return value as string[]
  }
  throw invalidArguments(
    TOOL,
    [
      {
        path: 'accept_unknowns',
        rule: 'type',
        message: `must be an array of reason codes, such as ["unrelated_process_unverified"]: got ${describeArgument(value)}`,
      },
    ],
    'no pending capture was touched',
  )
}
