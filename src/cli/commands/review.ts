import { ReaError } from '../../errors.js'
import {
  acceptPendingCaptures,
  listPendingCaptures,
  pathsFor,
  rejectPendingCaptures,
  showPendingCapture,
  type ReviewRequest,
  type ReviewResult,
} from '../../review/review-requests.js'
import type { AcceptOptions } from '../../review/review-actions.js'
import { runReviewSession } from '../../review/review-session.js'
import { parseCommandLine, usageHint, type Command, type CommandContext } from '../arguments.js'
import { REVIEW } from '../tables/review.js'
import { EXIT, EXIT_BY_SIGNAL } from '../exit-codes.js'
import { canonicalJsonDocument } from '../../evidence/canonical-json.js'
import { emitDocument } from '../output.js'

/** How the advice in the text names this command: as a user runs it in a project that installed REA. */
const COMMAND = 'rea review'

export const command: Command = {
  async run(argv, context) {
    const { values, positionals } = parseCommandLine(REVIEW, argv)
    const modes = (['list', 'show', 'accept', 'reject'] as const).filter((mode) => values[mode])
    const mode = modes[0] ?? 'review'
    const usage = { hint: usageHint(REVIEW) }
    if (modes.length > 1) {
      throw new ReaError(
        'INVALID_ARGUMENTS',
        `--${modes.join(' and --')} cannot be combined: choose one.`,
        usage,
      )
    }
    const allowing = values.force || values['record-unfinished'] || values['accept-unknown'].length > 0
    if (allowing && mode !== 'accept' && mode !== 'review') {
      throw new ReaError(
        'INVALID_ARGUMENTS',
        '--force, --record-unfinished and --accept-unknown apply to accepting only.',
        usage,
      )
    }
    if (values.json && mode === 'review') {
      throw new ReaError('INVALID_ARGUMENTS', '--json goes with --list, --show, --accept or --reject.', usage)
    }
    const request: ReviewRequest = { filters: positionals, cwd: process.cwd(), command: COMMAND }
    const accept: AcceptOptions = {
      force: values.force,
      recordUnfinished: values['record-unfinished'],
      acceptUnknowns: values['accept-unknown'],
    }
    const print = async (result: ReviewResult): Promise<number> => {
      await emitDocument(values.json ? canonicalJsonDocument(result.document) : result.text, undefined)
      return result.refused ? EXIT.reviewRefused : EXIT.ok
    }
    switch (mode) {
      case 'list':
        return await print(listPendingCaptures(request))
      case 'show':
        return await print(showPendingCapture(request))
      case 'accept':
        return await print(acceptPendingCaptures(request, accept))
      case 'reject':
        return await print(rejectPendingCaptures(request))
      case 'review':
        return await review(request, accept, context)
    }
  },
}

/**
 * The interactive review, in a terminal; without one (a pipe, CI, an agent's shell), the list and how to act on
 * it, and never a wait for keys.
 */
async function review(
  request: ReviewRequest,
  accept: AcceptOptions,
  context: CommandContext,
): Promise<number> {
  const listed = listPendingCaptures(request)
  if (!process.stdin.isTTY || !process.stdout.isTTY || listed.entries.length === 0) {
    const note =
      listed.entries.length === 0 || (process.stdin.isTTY && process.stdout.isTTY)
        ? ''
        : 'rea review: no terminal to review in (standard input or output is not one): listing instead.\n'
    await emitDocument(`${note}${listed.text}`, undefined)
    return EXIT.ok
  }
  const { relative, show } = pathsFor(request.cwd)
  const result = await runReviewSession(
    { input: process.stdin, output: process.stdout },
    {
      pending: listed.files,
      accept,
      show,
      relative,
      colour: process.env['NO_COLOR'] === undefined || process.env['NO_COLOR'] === '',
      signal: context.signals.signal,
    },
  )
  const lines = result.outcomes.map((outcome) => outcome.message)
  for (const skipped of result.skipped) {
    lines.push(`still pending: ${show(skipped)}`)
  }
  await emitDocument(`${lines.join('\n')}${lines.length === 0 ? '' : '\n'}`, undefined)
  const signal = context.signals.received()
  if (result.ended === 'signal' && signal !== undefined) {
    return EXIT_BY_SIGNAL[signal]
  }
  if (result.ended === 'interrupted') {
    return EXIT.cancelledBySigint
  }
  return result.outcomes.some((outcome) => outcome.outcome === 'refused') ? EXIT.reviewRefused : EXIT.ok
}
