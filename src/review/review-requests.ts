import { ReaError } from '../errors.js'
import { showName } from '../internal/escape-controls.js'
import { relativePosix } from '../internal/relative-posix.js'
import { readPendingCapture, type PendingCapture, type ShowPath } from './pending-capture.js'
import {
  outcomesText,
  pendingEntry,
  pendingListDocument,
  pendingListText,
  pendingShowText,
  showDiff,
  type PendingEntry,
  type RelativePath,
} from './pending-report.js'
import { selectPendingCaptures } from './pending-selection.js'
import {
  acceptPendingCapture,
  rejectPendingCapture,
  type AcceptOptions,
  type ReviewOutcome,
} from './review-actions.js'

/**
 * The four things a script, an agent or a person at a prompt does with pending captures, for the CLI's
 * `rea review --list/--show/--accept/--reject` and the MCP server's tools alike: each selects, acts, and returns
 * its result as a JSON document and as text. Paths in both are relative to `cwd`.
 */
export interface ReviewRequest {
  /** Test names, files or paths (`selectPendingCaptures`); none selects every pending capture under `cwd`. */
  readonly filters: readonly string[]
  readonly cwd: string
  /** The MCP server's project folder: paths outside it are refused. */
  readonly confine?: string
  /** How the commands are named in the text's advice (`rea review`, `npx rea review`). */
  readonly command: string
}

export interface ReviewResult {
  readonly document: Record<string, unknown>
  readonly text: string
  /** Some acceptance or rejection was refused (the others were done). */
  readonly refused: boolean
}

export function listPendingCaptures(
  request: ReviewRequest,
): ReviewResult & { readonly entries: readonly PendingEntry[]; readonly files: readonly string[] } {
  const { pending } = select(request, false)
  const { relative, show } = pathsFor(request.cwd)
  const entries = pending.map((file) => pendingEntry(readPendingCapture(file, show), relative))
  return {
    entries,
    files: pending,
    document: pendingListDocument(entries),
    text: pendingListText(entries, request.command),
    refused: false,
  }
}

/** One pending capture in full: `request.filters` must select exactly one (its path, usually). */
export function showPendingCapture(
  request: ReviewRequest,
): ReviewResult & { readonly capture: PendingCapture } {
  const { pending } = select(request, true)
  const { relative, show } = pathsFor(request.cwd)
  if (pending.length !== 1) {
    throw new ReaError(
      'INVALID_ARGUMENTS',
      `${request.filters.map(showName).join(' ')} selects ${pending.length} pending captures; --show shows one.`,
      {
        hint: `Give its path: ${pending.slice(0, 5).map(relative).join(', ')}${pending.length > 5 ? ', …' : ''}`,
      },
    )
  }
  const capture = readPendingCapture(pending[0] ?? '', show)
  const entry = pendingEntry(capture, relative)
  const diff = showDiff(capture)
  return {
    capture,
    document: {
      ...pendingListDocument([entry]),
      review_diff: diff.map((line) => `${line.kind === '@' ? '' : line.kind}${line.text}`).join('\n'),
      comparison: capture.comparison,
    },
    text: pendingShowText(capture, entry, request.command),
    refused: false,
  }
}

export function acceptPendingCaptures(request: ReviewRequest, options: AcceptOptions): ReviewResult {
  const { pending } = select(request, false)
  const { show } = pathsFor(request.cwd)
  return outcomesResult(
    pending.map((file) => acceptPendingCapture(file, options, show)),
    request.cwd,
  )
}

export function rejectPendingCaptures(request: ReviewRequest): ReviewResult {
  const { pending } = select(request, false)
  const { show } = pathsFor(request.cwd)
  return outcomesResult(
    pending.map((file) => rejectPendingCapture(file, show)),
    request.cwd,
  )
}

/** How paths are shown: relative to `cwd` (`/`-separated), quoted when a name needs it. */
export function pathsFor(cwd: string): { relative: RelativePath; show: ShowPath } {
  const relative = (file: string) => relativePosix(cwd, file)
  return { relative, show: (file) => showName(relative(file)) }
}

/** The selection; a filter that selects nothing is an error before anything is done, so a typo changes nothing. */
function select(request: ReviewRequest, needFilter: boolean): { pending: readonly string[] } {
  if (needFilter && request.filters.length === 0) {
    throw new ReaError('INVALID_ARGUMENTS', 'Name the pending capture to show: its path, or a test name.', {
      hint: 'List them with `rea review --list`.',
    })
  }
  const selection = selectPendingCaptures(request.filters, request.cwd, request.confine)
  if (selection.unmatched.length > 0) {
    throw new ReaError(
      'INVALID_ARGUMENTS',
      `No pending capture matches ${selection.unmatched.map(showName).join(', ')}; nothing was done.`,
      {
        hint: 'Filters match test names, the files of tests, authorities and pending captures, and folders. List them with `rea review --list`.',
      },
    )
  }
  return selection
}

function outcomesResult(outcomes: readonly ReviewOutcome[], cwd: string): ReviewResult {
  const relative = (file: string) => relativePosix(cwd, file)
  return {
    document: {
      outcomes: outcomes.map((outcome) => ({
        ...outcome,
        pending: relative(outcome.pending),
        authority: relative(outcome.authority),
      })),
    },
    text: outcomesText(outcomes),
    refused: outcomes.some((outcome) => outcome.outcome === 'refused'),
  }
}
