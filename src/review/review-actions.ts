import { existsSync, mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { authorityFileText } from '../authority/authority-text.js'
import { readPendingName } from '../authority/pending-path.js'
import { removePendingCaptures } from '../authority/pending-store.js'
import { unknownsInAuthority } from '../authority/authority-unknowns.js'
import { recordRefusal, type RecordAllowance } from '../authority/record-refusal.js'
import { AUTHORITY_FORMAT_VERSION } from '../evidence/authority-document.js'
import { writeFileAtomicSync } from '../internal/write-file-atomic.js'
import {
  readPendingCapture,
  unfinishedProblem,
  unknownsProblem,
  type PendingCapture,
  type PendingState,
  type ShowPath,
} from './pending-capture.js'

export interface AcceptOptions extends RecordAllowance {
  /** Accept even when the authority changed since the capture was compared with it, or is gone. */
  readonly force: boolean
  /** Unknowns, by reason code, the new authority may carry (`--accept-unknown`, as `acceptUnknowns` lets `-u`). */
  readonly acceptUnknowns: readonly string[]
}

/** What became of one pending capture; `message` says it in a sentence for people. */
export type ReviewOutcome =
  | {
      readonly pending: string
      readonly authority: string
      readonly outcome: 'accepted'
      readonly message: string
    }
  | {
      readonly pending: string
      readonly authority: string
      readonly outcome: 'rejected'
      readonly message: string
    }
  | {
      readonly pending: string
      readonly authority: string
      readonly outcome: 'refused'
      /** Why: the pending capture's state, or `write_failed` / `remove_failed` for the file system. */
      readonly reason: Exclude<PendingState, 'ready'> | 'write_failed' | 'remove_failed'
      readonly message: string
    }

/**
 * Accepts a pending capture: it becomes the authority, written whole or not at all, in the current review layout
 * (its own bytes, which are what `-u` writes; a pending capture of an earlier layout is written anew), and the
 * pending capture is removed. Read afresh first, and refused, leaving every file as it is, when it cannot be read,
 * when the authority changed since or is gone (unless `force`), when it could not stand as an authority
 * (`recordRefusal`, as `-u` refuses it, unless allowed by name), or when the authority would carry an unknown
 * whose reason the user did not accept by name (`unknownsInAuthority`, as `-u` refuses it).
 */
export function acceptPendingCapture(
  pendingPath: string,
  options: AcceptOptions,
  show: ShowPath,
): ReviewOutcome {
  const capture = readPendingCapture(pendingPath, show)
  const paths = { pending: capture.pending, authority: capture.authority }
  const refusal = acceptRefusal(capture, options, show)
  if (refusal !== null) {
    return { ...paths, outcome: 'refused', ...refusal }
  }
  const evidence = capture.evidence
  const text = capture.text
  if (evidence === null || text === null) {
    return { ...paths, outcome: 'refused', reason: 'unreadable', message: capture.problem ?? '' }
  }
  const current = isCurrentLayout(text) ? text : authorityFileText(evidence)
  try {
    mkdirSync(path.dirname(capture.authority), { recursive: true })
    writeFileAtomicSync(capture.authority, current)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error)
    return {
      ...paths,
      outcome: 'refused',
      reason: 'write_failed',
      message: `The authority ${show(capture.authority)} could not be written (${code}), so it is unchanged and ${show(capture.pending)} is still pending. Make the folder writable and accept again.`,
    }
  }
  const { failed } = removePendingCaptures(capture.authority)
  const left = failed.map(({ file, code }) => ` ${show(file)} could not be removed (${code}): delete it.`)
  return {
    ...paths,
    outcome: 'accepted',
    message: `accepted: ${show(capture.authority)} now holds the capture of ${show(capture.pending)}.${left.join('')}`,
  }
}

/** Rejects a pending capture: it is removed, and the authority stays as it is. */
export function rejectPendingCapture(pendingPath: string, show: ShowPath): ReviewOutcome {
  const authority = readPendingName(pendingPath, existsSync)?.authority ?? pendingPath
  try {
    rmSync(pendingPath)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error)
    return {
      pending: pendingPath,
      authority,
      outcome: 'refused',
      reason: 'remove_failed',
      message: `${show(pendingPath)} could not be removed (${code}): make its folder writable, or delete it.`,
    }
  }
  return {
    pending: pendingPath,
    authority,
    outcome: 'rejected',
    message: `rejected: ${show(pendingPath)} removed; ${show(authority)} is unchanged.`,
  }
}

function acceptRefusal(
  capture: PendingCapture,
  options: AcceptOptions,
  show: ShowPath,
): { reason: Exclude<PendingState, 'ready'>; message: string } | null {
  const refused = (reason: Exclude<PendingState, 'ready'>, why: string | null) => ({
    reason,
    message: `not accepted: ${show(capture.pending)}\n${why ?? reason}`,
  })
  switch (capture.state) {
    case 'unreadable':
      return refused('unreadable', capture.problem)
    case 'authority_missing':
    case 'authority_changed':
      if (!options.force) {
        return refused(capture.state, capture.problem)
      }
      break
    case 'refused':
    case 'carries_unknowns':
    case 'ready':
      break
  }
  if (capture.evidence === null) {
    return null
  }
  // Checked whatever the state said first: --force lets a changed authority be replaced, never a flawed capture.
  const flaws = recordRefusal(capture.evidence, options)
  if (flaws !== null) {
    return refused('refused', unfinishedProblem(flaws))
  }
  const unknowns = unknownsInAuthority(capture.evidence, options.acceptUnknowns)
  return unknowns.length === 0 ? null : refused('carries_unknowns', unknownsProblem(unknowns))
}

/** Whether a pending capture's text is in the layout this REA writes (its format_version line). */
function isCurrentLayout(text: string): boolean {
  return text.startsWith(
    `{\n  "format": "rea.process-capture.authority",\n  "format_version": ${AUTHORITY_FORMAT_VERSION},\n`,
  )
}
