import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { compareCaptures } from '../compare/compare-captures.js'
import type { Comparison } from '../compare/comparison-schema.js'
import { formatComparison } from '../compare/format-comparison.js'
import { formatReaError, isReaError, ReaError } from '../errors.js'
import { parseEvidence, readEvidenceFileSync, serializeEvidence } from '../evidence/load.js'
import type { Evidence } from '../evidence/schema.js'
import { isValidated } from '../evidence/validated.js'
import { relativePosix } from '../internal/relative-posix.js'
import { authorityPathFor, resolveAuthorityPath } from './authority-path.js'
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
  /** The normalized terminal texts, for the runner's own diff view. */
  readonly actual?: string
  readonly expected?: string
}

/**
 * The logic of `toMatchCapture`, runner-independent. Missing authority files are recorded (unless the mode is
 * `none`), mismatching ones rewritten only in mode `all`; `.not` holds only for a proven difference, so an
 * unknown comparison fails both ways, with its reasons.
 */
export function matchCapture(request: CaptureMatchRequest): CaptureMatchResult {
  let received: Evidence | null = null
  let authorityEvidence: Evidence | null = null
  // `satisfied` is what the user asked for; the runner turns `pass` into that by inverting it for `.not`.
  const result = (
    satisfied: boolean,
    message: string,
    extra: Partial<CaptureMatchResult> = {},
  ): CaptureMatchResult => ({
    pass: request.isNot ? !satisfied : satisfied,
    message,
    count: null,
    authorityPath: null,
    comparison: null,
    received,
    authorityEvidence,
    ...extra,
  })
  const name = request.isNot ? 'not.toMatchCapture' : 'toMatchCapture'
  try {
    received = isValidated(request.received)
      ? request.received
      : parseEvidence(request.received, 'The received value')
  } catch (error) {
    return result(
      false,
      `expect(capture).${name}() needs the Evidence returned by captureProcess.\n${describeError(error)}`,
    )
  }

  if (typeof request.authority === 'object') {
    try {
      authorityEvidence = isValidated(request.authority)
        ? request.authority
        : parseEvidence(request.authority, 'The authority Evidence object')
    } catch (error) {
      return result(false, describeError(error))
    }
    return judge(request, name, received, authorityEvidence, null, null, result)
  }

  const authorityPath =
    request.authority === undefined
      ? authorityPathFor(request.testPath, request.testName, request.assertion)
      : resolveAuthorityPath(request.testPath, request.authority)
  const shown = relativePosix(request.root, authorityPath)
  // `-u` replaces a mismatching, unreadable or incomparable authority file; `.not` never writes.
  const rewrite =
    request.isNot || request.updateMode !== 'all'
      ? null
      : () =>
          recorded(authorityPath, received, shown, 'rewritten', { authorityPath, count: 'updated' }, result)
  if (!existsSync(authorityPath)) {
    if (request.isNot) {
      return result(
        false,
        `expect(capture).${name}(): there is no authority to differ from: ${shown} does not exist.`,
        { authorityPath },
      )
    }
    if (request.updateMode === 'none') {
      return result(
        false,
        `expect(capture).${name}(): the authority ${shown} does not exist, and it was not written because ` +
          `this run does not write authorities (CI is set, or the runner was told not to update).\n` +
          `Record it locally (run the test without CI, or with \`${request.updateCommand}\`), review it, and commit it.`,
        { authorityPath, count: 'unmatched' },
      )
    }
    return recorded(authorityPath, received, shown, 'written', { authorityPath, count: 'added' }, result)
  }

  let authority: Evidence
  try {
    authority = readEvidenceFileSync(authorityPath)
  } catch (error) {
    return (
      rewrite?.() ??
      result(
        false,
        `expect(capture).${name}(): the authority ${shown} cannot be used.\n${describeError(error)}\n` +
          `If the capture is right, re-record the authority with \`${request.updateCommand}\`.`,
        { authorityPath, count: 'unmatched' },
      )
    )
  }
  return judge(request, name, received, authority, authorityPath, rewrite, result)
}

function judge(
  request: CaptureMatchRequest,
  name: string,
  received: Evidence,
  authority: Evidence,
  authorityPath: string | null,
  rewrite: (() => CaptureMatchResult) | null,
  result: ResultMaker,
): CaptureMatchResult {
  const shown =
    authorityPath === null ? 'the given Evidence object' : relativePosix(request.root, authorityPath)
  let comparison: Comparison
  try {
    comparison = compareCaptures(authority, received, {
      sources: { authority: shown, reconstruction: 'this capture' },
    })
  } catch (error) {
    return (
      rewrite?.() ??
      result(
        false,
        `expect(capture).${name}(): the capture cannot be compared with ${shown}.\n${describeError(error)}` +
          (authorityPath === null
            ? ''
            : `\nIf the scenario changed on purpose, re-record with \`${request.updateCommand}\`.`),
        { authorityPath, count: authorityPath === null ? null : 'unmatched' },
      )
    )
  }
  // Formatting and the runner's diff texts cost more than comparing a short capture: only failures need them.
  const details = (): string => formatComparison(comparison, { color: request.color }).trimEnd()
  const failure = (message: string, count: SnapshotCount | null): CaptureMatchResult =>
    result(false, message, {
      authorityPath,
      comparison,
      count,
      actual: terminalText(received),
      expected: terminalText(authority),
    })
  if (request.isNot) {
    return comparison.verdict === 'different'
      ? result(
          true,
          `expect(capture).not.toMatchCapture(): the capture differs from ${shown}, as expected.`,
          {
            authorityPath,
            comparison,
          },
        )
      : failure(
          comparison.verdict === 'equivalent'
            ? `expect(capture).not.toMatchCapture(): the capture is equivalent to ${shown}.\n\n${details()}`
            : `expect(capture).not.toMatchCapture(): a difference from ${shown} could not be established; unknown is neither equal nor different.\n\n${details()}`,
          null,
        )
  }
  if (comparison.verdict === 'equivalent') {
    return result(true, `the capture is equivalent to ${shown}`, {
      authorityPath,
      comparison,
      count: authorityPath === null ? null : 'matched',
    })
  }
  const rewritten = rewrite?.()
  if (rewritten !== undefined) {
    return { ...rewritten, comparison }
  }
  const headline =
    comparison.verdict === 'different'
      ? `the capture differs from its authority ${shown}`
      : `equivalence with ${shown} could not be established (unknown is never equal)`
  return failure(
    `expect(capture).toMatchCapture(): ${headline}.\n\n${details()}\n\n` +
      (authorityPath === null
        ? 'The authority is an Evidence object given in the test.'
        : `Authority: ${shown}\nIf the new behaviour is intended, re-record with \`${request.updateCommand}\` and review the change.`),
    authorityPath === null ? null : 'unmatched',
  )
}

type ResultMaker = (
  satisfied: boolean,
  message: string,
  extra?: Partial<CaptureMatchResult>,
) => CaptureMatchResult

/** Writes the authority; a file that cannot be written fails the assertion with the path and the OS code. */
function recorded(
  file: string,
  evidence: Evidence,
  shown: string,
  verb: 'written' | 'rewritten',
  extra: Partial<CaptureMatchResult>,
  result: ResultMaker,
): CaptureMatchResult {
  try {
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, serializeEvidence(evidence))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error)
    return result(
      false,
      `expect(capture).toMatchCapture(): the authority ${shown} could not be ${verb} (${code}).`,
      {
        ...extra,
        count: null,
      },
    )
  }
  return result(true, `authority ${shown} ${verb}`, extra)
}

function terminalText(evidence: Evidence): string {
  return evidence.terminal.chunks.map((chunk) => chunk.data).join('')
}

function describeError(error: unknown): string {
  if (isReaError(error)) {
    return formatReaError(error)
  }
  throw error instanceof Error ? error : new ReaError('INTERNAL', String(error))
}
