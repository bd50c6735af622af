import { existsSync, readFileSync } from 'node:fs'
import { authorityFingerprint, readPendingName, type PendingName } from '../authority/pending-path.js'
import {
  describeAuthorityUnknowns,
  unknownReasons,
  unknownsInAuthority,
  type AuthorityUnknown,
} from '../authority/authority-unknowns.js'
import { recordRefusal } from '../authority/record-refusal.js'
import { compareCaptures } from '../compare/compare-captures.js'
import type { Comparison } from '../compare/comparison-schema.js'
import { formatReaError, isReaError, ReaError } from '../errors.js'
import { describeFlaw } from '../evidence/describe-run.js'
import { parseEvidenceText } from '../evidence/load.js'
import type { RunFlaw } from '../evidence/run-flaws.js'
import type { Evidence } from '../evidence/schema.js'
import { EVIDENCE_FILE_MAX_BYTES, readInputFileSync } from '../internal/read-input-file.js'
import { describeSystemError } from '../internal/system-error.js'

/**
 * Whether a pending capture can be accepted as it is:
 * - `ready`: it can;
 * - `unreadable`: the file is not a whole pending capture REA can read (cut short, edited, another version);
 * - `authority_missing`: the authority it would replace is gone;
 * - `authority_changed`: the authority is no longer the file this capture was compared with;
 * - `refused`: the capture could not stand as an authority (`recordRefusal`), as `-u` would refuse it;
 * - `carries_unknowns`: as the authority it would carry an unknown (`unknownsInAuthority`), which `-u` refuses too.
 */
export type PendingState =
  'ready' | 'unreadable' | 'authority_missing' | 'authority_changed' | 'refused' | 'carries_unknowns'

/** The authority a pending capture would replace, as it is on disk now. */
export type CurrentAuthority =
  | {
      readonly state: 'present'
      readonly evidence: Evidence
      readonly text: string
      readonly fingerprint: string
    }
  | {
      readonly state: 'unusable'
      readonly error: ReaError
      readonly text: string | null
      readonly fingerprint: string | null
    }
  | { readonly state: 'missing' }

/** One pending capture, read with its authority and compared with it. */
export interface PendingCapture {
  /** Absolute paths. */
  readonly pending: string
  readonly authority: string
  /** The test, read from a default authority's name; null for an authority at an explicit path. */
  readonly test: PendingName['test']
  readonly state: PendingState
  /** For every state but `ready`: why, naming the file, and what to do; one paragraph. */
  readonly problem: string | null
  /** The pending capture's Evidence and its file's text; null when unreadable. */
  readonly evidence: Evidence | null
  readonly text: string | null
  readonly current: CurrentAuthority
  /** The authority compared with the pending capture (the default policies), when both could be read. */
  readonly comparison: Comparison | null
  /** Why the two were not compared: the contract changed, or the authority cannot be used. */
  readonly comparisonNote: string | null
  readonly flaws: readonly RunFlaw[] | null
  /** The unknowns an authority made from it would carry (none accepted); empty when unreadable. */
  readonly unknowns: readonly AuthorityUnknown[]
}

/** How a path is shown to people: relative to where the review runs. */
export type ShowPath = (file: string) => string

const PENDING_FILE = {
  label: 'The pending capture',
  code: 'INVALID_EVIDENCE',
  maxBytes: EVIDENCE_FILE_MAX_BYTES,
} as const

/**
 * Reads a pending capture and the authority it would replace, and compares them (timing `tolerant`, terminal
 * `stream`: the defaults of the command line). Nothing is thrown for a bad file: the state says what is wrong.
 * Throws INVALID_ARGUMENTS when the path is not named as a pending capture.
 */
export function readPendingCapture(pendingPath: string, show: ShowPath): PendingCapture {
  const name = readPendingName(pendingPath, existsSync)
  if (name === null) {
    throw new ReaError(
      'INVALID_ARGUMENTS',
      `${show(pendingPath)} is not a pending capture: its name must end in .<8 hex digits>.pending-capture.json.`,
      { hint: 'List the pending captures with `rea review --list`.' },
    )
  }
  const base = { pending: pendingPath, authority: name.authority, test: name.test }
  const current = readCurrentAuthority(name.authority, show)
  let text: string
  let evidence: Evidence
  try {
    text = readInputFileSync(pendingPath, PENDING_FILE)
    evidence = parseEvidenceText(text, show(pendingPath))
  } catch (error) {
    if (!isReaError(error)) {
      throw error
    }
    return {
      ...base,
      state: 'unreadable',
      problem: unreadableProblem(error, show(pendingPath)),
      evidence: null,
      text: null,
      current,
      comparison: null,
      comparisonNote: null,
      flaws: null,
      unknowns: [],
    }
  }
  const flaws = recordRefusal(evidence, { recordUnfinished: false })
  const unknowns = unknownsInAuthority(evidence)
  const { comparison, comparisonNote } = compareWithCurrent(current, evidence, show, base)
  const state: PendingState =
    current.state === 'missing'
      ? 'authority_missing'
      : current.fingerprint !== name.fingerprint
        ? 'authority_changed'
        : flaws !== null
          ? 'refused'
          : unknowns.length > 0
            ? 'carries_unknowns'
            : 'ready'
  return {
    ...base,
    state,
    problem: problemOf(state, show(name.authority), flaws, unknowns),
    evidence,
    text,
    current,
    comparison,
    comparisonNote,
    flaws,
    unknowns,
  }
}

/** The authority as it is now; its fingerprint is over its bytes, as the pending capture's name has it. */
export function readCurrentAuthority(authority: string, show: ShowPath): CurrentAuthority {
  let bytes: Buffer
  try {
    bytes = readFileSync(authority)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { state: 'missing' }
    }
    const message = `The authority ${show(authority)} cannot be read (${describeSystemError(error)}).`
    return {
      state: 'unusable',
      error: new ReaError('INVALID_EVIDENCE', message),
      text: null,
      fingerprint: null,
    }
  }
  const text = bytes.toString('utf8')
  const fingerprint = authorityFingerprint(bytes)
  try {
    return { state: 'present', evidence: parseEvidenceText(text, show(authority)), text, fingerprint }
  } catch (error) {
    if (!isReaError(error)) {
      throw error
    }
    return { state: 'unusable', error, text, fingerprint }
  }
}

function compareWithCurrent(
  current: CurrentAuthority,
  evidence: Evidence,
  show: ShowPath,
  paths: { readonly pending: string; readonly authority: string },
): { comparison: Comparison | null; comparisonNote: string | null } {
  switch (current.state) {
    case 'missing':
      return { comparison: null, comparisonNote: null }
    case 'unusable':
      return { comparison: null, comparisonNote: formatReaError(current.error) }
    case 'present':
      try {
        const comparison = compareCaptures(current.evidence, evidence, {
          sources: { authority: show(paths.authority), reconstruction: show(paths.pending) },
        })
        return { comparison, comparisonNote: null }
      } catch (error) {
        if (!isReaError(error)) {
          throw error
        }
        return { comparison: null, comparisonNote: formatReaError(error) }
      }
  }
}

function unreadableProblem(error: ReaError, shown: string): string {
  const why =
    error.code === 'UNSUPPORTED_EVIDENCE_VERSION'
      ? 'it was written by another version of REA'
      : 'it is not a whole pending capture (cut short, edited, or not written by REA)'
  return (
    `${shown} cannot be reviewed: ${why}.\n${formatReaError(error)}\n` +
    'Reject it (`rea review --reject` with its path) and run its test again to write a new one' +
    (error.code === 'UNSUPPORTED_EVIDENCE_VERSION' ? ', or review it with the REA that wrote it.' : '.')
  )
}

function problemOf(
  state: PendingState,
  authority: string,
  flaws: readonly RunFlaw[] | null,
  unknowns: readonly AuthorityUnknown[],
): string | null {
  switch (state) {
    case 'ready':
    case 'unreadable':
      return null
    case 'authority_missing':
      return (
        `Its authority ${authority} is gone (the test was renamed or removed, or the file deleted). Reject it; if ` +
        'the test still exists, run it: a local run records a missing authority. Accept with --force to write it as the authority anyway.'
      )
    case 'authority_changed':
      return (
        `Its authority ${authority} changed after this capture was compared with it (a pull, a -u run, an edit). ` +
        'Run the test again to compare with the authority as it is now, or accept with --force to replace it anyway.'
      )
    case 'refused':
      return unfinishedProblem(flaws ?? [])
    case 'carries_unknowns':
      return unknownsProblem(unknowns)
  }
}

/** Why a capture cannot stand as an authority, and what to do: the paragraph of a refused acceptance. */
export function unfinishedProblem(flaws: readonly RunFlaw[]): string {
  return [
    'It did not run as its scenario expects, so it cannot stand as the authority (as `-u` would refuse it):',
    ...flaws.map((flaw) => `  - ${describeFlaw(flaw)}`),
    'Reject it and fix the scenario or the program; to record such a run on purpose, accept with --record-unfinished.',
  ].join('\n')
}

/**
 * Why a capture carrying unknowns cannot become the authority unless they are accepted by name, and what to do:
 * the paragraph of a refused acceptance. Such an authority would make every later comparison unknown.
 */
export function unknownsProblem(unknowns: readonly AuthorityUnknown[]): string {
  const reasons = unknownReasons(unknowns)
  return [
    `It carries ${unknowns.length === 1 ? 'an unknown' : `${unknowns.length} unknowns`}, so as the authority every later comparison with it would be unknown, whatever the program does (as \`-u\` would refuse it):`,
    ...describeAuthorityUnknowns(unknowns),
    `Reject it and run the test again; to make it the authority with ${reasons.length === 1 ? 'this unknown' : 'these unknowns'} on purpose, accept with ${reasons.map((reason) => `--accept-unknown ${reason}`).join(' ')} (docs/authority-files.md#unknowns).`,
  ].join('\n')
}
