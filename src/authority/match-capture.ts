import type { Comparison, TerminalLevel, TimingPolicy } from '../compare/comparison-schema.js'
import { firstScreenRowChange, type ScreenRowChange } from '../compare/screen-row-change.js'
import { isReaError, type ReaError } from '../errors.js'
import { parseEvidence } from '../evidence/load.js'
import type { Evidence } from '../evidence/schema.js'
import { checkpointScreensText } from '../evidence/screen-text.js'
import { isValidated } from '../evidence/validated.js'
import { relativePosix } from '../internal/relative-posix.js'
import { authorityPathFor, resolveAuthorityPath } from './authority-path.js'
import { readAuthorityFile } from './authority-store.js'
import {
  decideCaptureMatch,
  pendingActionFor,
  type AuthoritySource,
  type CaptureDecision,
  type CaptureDecisionInput,
  type PendingAction,
} from './capture-decision.js'
import {
  authorityObjectInvalid,
  authorityWriteFailed,
  captureMessage,
  machineValuesWarning,
  pendingNotRemovedWarning,
  receivedNotEvidence,
  type PendingOutcome,
} from './messages.js'
import { writeAuthority } from './stored-authority.js'
import { removePendingCaptures, writePendingCapture } from './pending-store.js'
import type { UpdateMode } from './update-mode.js'

/** What the matcher was asked, with everything it needs from the runner already read. */
export interface CaptureMatchRequest {
  readonly received: unknown
  /** An authority file (relative to the test file), an Evidence object, or nothing for the default file. */
  readonly authority: string | Evidence | undefined
  readonly testPath: string
  readonly testName: string
  /** 1-based position of this assertion among the test's `toMatchCapture()` calls. */
  readonly assertion: number
  readonly updateMode: UpdateMode
  readonly isNot: boolean
  /** How timing values count (the assertion's option, the project's, or MATCHER_TIMING_DEFAULT). */
  readonly timing: TimingPolicy
  /** Record an authority from a run that did not go as its scenario expects (`recordUnfinished`). */
  readonly recordUnfinished?: boolean
  /** Unknowns, by reason code, an authority may be recorded with (`acceptUnknowns`). */
  readonly acceptUnknowns?: readonly string[]
  /** How the terminal is compared (the assertion's option, the project's, or `stream`). */
  readonly terminal: TerminalLevel
  /** How the user re-records, e.g. `vitest -u`; shown in failure messages. */
  readonly updateCommand: string
  /** Paths in messages are shown relative to this folder. */
  readonly root: string
  readonly color: boolean
}

/** How the assertion affects the runner's snapshot summary. */
export type SnapshotCount = 'added' | 'updated' | 'matched' | 'unmatched'

export interface CaptureMatchResult {
  /** In the runner's sense: the runner inverts it for `.not`. */
  readonly pass: boolean
  readonly message: string
  readonly count: SnapshotCount | null
  readonly authorityPath: string | null
  readonly comparison: Comparison | null
  /** The received capture once it was read as Evidence. */
  readonly received: Evidence | null
  /** The authority when it was given as an Evidence object (file authorities are in authorityPath). */
  readonly authorityEvidence: Evidence | null
  /** The first screen row that reads differently from the authority's; null when none does or nothing compared. */
  readonly rowChange: ScreenRowChange | null
  /** The pending capture this assertion kept for review (docs/review.md), absolute; null when none was written. */
  readonly pendingPath: string | null
  /** Said to the user though the assertion passes: an authority just written that will not hold elsewhere. */
  readonly warnings: readonly string[]
  /**
   * Both captures' checkpoint screens as text, for the runner's own diff view: rendered rows, never the escape
   * sequences that drew them (printed raw, those erase and move lines of the diff on the developer's terminal).
   */
  readonly actual?: string
  readonly expected?: string
}

/** A result in the runner's sense; what `extra` does not say was not reached (nothing read, compared or counted). */
export function captureMatchResult(
  pass: boolean,
  message: string,
  extra: Partial<CaptureMatchResult> = {},
): CaptureMatchResult {
  return {
    warnings: [],
    count: null,
    authorityPath: null,
    comparison: null,
    received: null,
    authorityEvidence: null,
    rowChange: null,
    pendingPath: null,
    ...extra,
    pass,
    message,
  }
}

/**
 * `toMatchCapture`, runner-independent: read the received capture, let the store read the authority file,
 * decide (`decideCaptureMatch`), write when the decision says so, and word the result (`messages.ts`).
 */
export function matchCapture(request: CaptureMatchRequest): CaptureMatchResult {
  const name = request.isNot ? 'not.toMatchCapture' : 'toMatchCapture'
  // `satisfied` is what the user asked for; the runner turns `pass` into that by inverting it for `.not`.
  const result = (satisfied: boolean, message: string, extra: Partial<CaptureMatchResult> = {}) =>
    captureMatchResult(request.isNot ? !satisfied : satisfied, message, extra)
  const received = readEvidence(request.received, 'The received value')
  if ('error' in received) {
    return result(false, receivedNotEvidence(name, received.error))
  }
  const evidence = received.evidence
  let source: AuthoritySource
  let shown: string
  let authorityPath: string | null = null
  let authorityEvidence: Evidence | null = null
  if (typeof request.authority === 'object') {
    const authority = readEvidence(request.authority, 'The authority Evidence object')
    if ('error' in authority) {
      return result(false, authorityObjectInvalid(authority.error), { received: evidence })
    }
    authorityEvidence = authority.evidence
    source = { kind: 'object', evidence: authority.evidence }
    shown = 'the given Evidence object'
  } else {
    authorityPath =
      request.authority === undefined
        ? authorityPathFor(request.testPath, request.testName, request.assertion)
        : resolveAuthorityPath(request.testPath, request.authority)
    source = { kind: 'file', file: readAuthorityFile(authorityPath) }
    shown = relativePosix(request.root, authorityPath)
  }
  const input: CaptureDecisionInput = {
    received: evidence,
    authority: source,
    shown,
    isNot: request.isNot,
    updateMode: request.updateMode,
    timing: request.timing,
    recordUnfinished: request.recordUnfinished ?? false,
    acceptUnknowns: request.acceptUnknowns ?? [],
    terminal: request.terminal,
  }
  const decision = decideCaptureMatch(input)
  const fromFile = authorityPath !== null
  const warnings: string[] = []
  const pending =
    authorityPath === null
      ? null
      : applyPendingAction(pendingActionFor(decision, input), authorityPath, evidence, request.root, warnings)
  const pendingPath = pending?.state === 'written' ? pending.path : null
  const extra = { authorityPath, received: evidence, authorityEvidence, pendingPath }
  if (decision.kind === 'write' && authorityPath !== null) {
    const { failure, stored } = writeAuthority(authorityPath, evidence)
    if (failure !== null) {
      const verb = decision.write === 'new' ? 'written' : 'rewritten'
      return result(false, authorityWriteFailed(shown, verb, failure), extra)
    }
    if (stored.machineValuesLeft.length > 0) {
      warnings.push(machineValuesWarning(shown, stored.machineValuesLeft))
    }
  }
  const authority = source.kind === 'object' ? source.evidence : presentEvidence(source)
  const rowChange =
    (decision.kind === 'mismatch' || decision.kind === 'not_different') && authority !== null
      ? firstScreenRowChange(authority, evidence)
      : null
  const message = captureMessage(decision, {
    rowChange,
    name,
    shown,
    fromFile,
    updateCommand: request.updateCommand,
    color: request.color,
    received: evidence,
    pending,
  })
  return result(satisfies(decision), message, {
    ...extra,
    rowChange,
    warnings,
    comparison: 'comparison' in decision ? decision.comparison : null,
    count: countOf(decision, fromFile),
    // The runner's own diff view, for failures that compared two captures.
    ...((decision.kind === 'mismatch' || decision.kind === 'not_different') && authority !== null
      ? { actual: checkpointScreensText(evidence), expected: checkpointScreensText(authority) }
      : {}),
  })
}

/**
 * Does what the decision asks of the authority's pending capture and says how it went, for the message. A pending
 * capture that could not be removed is a warning: the assertion's own outcome stands.
 */
function applyPendingAction(
  action: PendingAction,
  authorityPath: string,
  evidence: Evidence,
  root: string,
  warnings: string[],
): PendingOutcome | null {
  switch (action.kind) {
    case 'keep': {
      const written = writePendingCapture(authorityPath, evidence)
      return written.state === 'written'
        ? {
            state: 'written',
            path: written.pending,
            shown: relativePosix(root, written.pending),
            replaced: written.replaced,
          }
        : {
            state: 'failed',
            shown: relativePosix(root, written.pending ?? authorityPath),
            code: written.code,
          }
    }
    case 'refused':
      return { state: 'refused', flaws: action.flaws }
    case 'clear': {
      const { failed } = removePendingCaptures(authorityPath)
      for (const { file, code } of failed) {
        warnings.push(pendingNotRemovedWarning(relativePosix(root, file), code))
      }
      return null
    }
    case 'none':
      return null
  }
}

/** Whether the assertion holds as the user wrote it (before the runner inverts it for `.not`). */
function satisfies(decision: CaptureDecision): boolean {
  switch (decision.kind) {
    case 'write':
    case 'equivalent':
    case 'differs_as_expected':
      return true
    case 'missing_under_not':
    case 'missing_not_written':
    case 'unfinished':
    case 'carries_unknowns':
    case 'authority_unusable':
    case 'incomparable':
    case 'mismatch':
    case 'not_different':
      return false
  }
}

/** How the decision counts in the runner's snapshot summary; authorities given as objects never count. */
function countOf(decision: CaptureDecision, fromFile: boolean): SnapshotCount | null {
  if (!fromFile) {
    return null
  }
  switch (decision.kind) {
    case 'write':
      return decision.write === 'new' ? 'added' : 'updated'
    case 'equivalent':
      return 'matched'
    case 'missing_not_written':
    case 'unfinished':
    case 'carries_unknowns':
    case 'authority_unusable':
    case 'incomparable':
    case 'mismatch':
      return 'unmatched'
    case 'missing_under_not':
    case 'differs_as_expected':
    case 'not_different':
      return null
  }
}

function presentEvidence(source: Extract<AuthoritySource, { kind: 'file' }>): Evidence | null {
  return source.file.state === 'present' ? source.file.evidence : null
}

/** Evidence this process produced or validated is used as it is; anything else is validated first. */
function readEvidence(value: unknown, source: string): { evidence: Evidence } | { error: ReaError } {
  if (isValidated(value)) {
    return { evidence: value }
  }
  try {
    return { evidence: parseEvidence(value, source) }
  } catch (error) {
    if (isReaError(error)) {
      return { error }
    }
    throw error
  }
}
