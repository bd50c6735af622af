import { compareCaptures } from '../compare/compare-captures.js'
import type { Comparison, TerminalLevel, TimingPolicy } from '../compare/comparison-schema.js'
import type { ReaError } from '../errors.js'
import { isReaError } from '../errors.js'
import type { RunFlaw } from '../evidence/run-flaws.js'
import type { Evidence } from '../evidence/schema.js'
import type { AuthorityFile } from './authority-store.js'
import { unknownsInAuthority, type AuthorityUnknown } from './authority-unknowns.js'
import { recordRefusal } from './record-refusal.js'
import type { UpdateMode } from './update-mode.js'

/** The authority as the decision sees it: an object from the test, or a file as the store read it. */
export type AuthoritySource =
  | { readonly kind: 'object'; readonly evidence: Evidence }
  | { readonly kind: 'file'; readonly file: AuthorityFile }

export interface CaptureDecisionInput {
  readonly received: Evidence
  readonly authority: AuthoritySource
  /** How the authority is named to people and in the comparison document. */
  readonly shown: string
  readonly isNot: boolean
  readonly updateMode: UpdateMode
  /** How timing values count in the comparison. */
  readonly timing: TimingPolicy
  /** Record an authority even from a run that did not go as its scenario expects (`recordUnfinished`). */
  readonly recordUnfinished: boolean
  /** Unknowns, by reason code, an authority may be recorded with (`acceptUnknowns`). */
  readonly acceptUnknowns: readonly string[]
  /** How the terminal is compared. */
  readonly terminal: TerminalLevel
}

/**
 * Every way `toMatchCapture` can end, decided without touching a file. `write` asks the caller to store the
 * received capture as the authority (`new`: there was none; `replace`: `-u` replaces a mismatching, unusable or
 * incomparable one). `unfinished` is a write refused: the capture did not run as its scenario expects;
 * `carries_unknowns` too: the authority would carry an unknown the user did not accept by name.
 */
export type CaptureDecision =
  | { readonly kind: 'write'; readonly write: 'new' | 'replace'; readonly comparison: Comparison | null }
  | {
      readonly kind: 'unfinished'
      readonly write: 'new' | 'replace'
      readonly flaws: readonly RunFlaw[]
      readonly comparison: Comparison | null
    }
  | {
      readonly kind: 'carries_unknowns'
      readonly write: 'new' | 'replace'
      readonly unknowns: readonly AuthorityUnknown[]
      readonly comparison: Comparison | null
    }
  | { readonly kind: 'missing_under_not' }
  | { readonly kind: 'missing_not_written' }
  | { readonly kind: 'authority_unusable'; readonly error: ReaError }
  | { readonly kind: 'incomparable'; readonly error: ReaError }
  | { readonly kind: 'equivalent'; readonly comparison: Comparison }
  | { readonly kind: 'mismatch'; readonly comparison: Comparison }
  | { readonly kind: 'differs_as_expected'; readonly comparison: Comparison }
  | { readonly kind: 'not_different'; readonly comparison: Comparison }

/**
 * The decision of `toMatchCapture`: missing authority files are recorded unless the mode is `none`, mismatching
 * ones replaced only in mode `all`, and `.not` never writes and holds only for a proven difference, so an
 * unknown comparison fails both ways. No authority is written from a capture that skipped a wait, was
 * cancelled or was ended by an unexpected deadline (`recordRefusal`), unless `recordUnfinished` asks for it: such an
 * authority would pass green while proving nothing. Nor from one that carries an unknown the user did not
 * accept by name (`acceptUnknowns`): every later comparison with it would be unknown.
 */
export function decideCaptureMatch(input: CaptureDecisionInput): CaptureDecision {
  const decision = decideIgnoringFlaws(input)
  if (decision.kind !== 'write') {
    return decision
  }
  const flaws = recordRefusal(input.received, { recordUnfinished: input.recordUnfinished })
  if (flaws !== null) {
    return { ...decision, kind: 'unfinished', flaws }
  }
  return authorityWriteOrRefusal(decision, input.received, input.acceptUnknowns)
}

/**
 * The check every way of writing an authority makes (a first recording, `-u`, accepting a reviewed pending
 * capture): an authority carrying an unknown would compare unknown with every later capture, so the write is
 * refused, naming each unknown, unless the user accepted its reason by name.
 */
export function authorityWriteOrRefusal<
  T extends { readonly write: 'new' | 'replace'; readonly comparison: Comparison | null },
>(
  write: T,
  capture: Evidence,
  acceptUnknowns: readonly string[],
): T | Extract<CaptureDecision, { kind: 'carries_unknowns' }> {
  const unknowns = unknownsInAuthority(capture, acceptUnknowns)
  return unknowns.length === 0
    ? write
    : { kind: 'carries_unknowns', write: write.write, unknowns, comparison: write.comparison }
}

/**
 * What a decision asks of the authority's pending capture (docs/review.md): a local run (`new`) that finds the
 * authority file mismatching, unusable or incomparable keeps the capture as pending, exactly where `-u` would
 * have replaced the authority, unless the capture could not stand as an authority anyway (`refused`); a run that
 * matched or wrote the authority clears a pending capture left from before. CI (`none`) and `.not` never touch one.
 */
export type PendingAction =
  | { readonly kind: 'keep' }
  | { readonly kind: 'refused'; readonly flaws: readonly RunFlaw[] }
  | { readonly kind: 'clear' }
  | { readonly kind: 'none' }

export function pendingActionFor(decision: CaptureDecision, input: CaptureDecisionInput): PendingAction {
  if (input.authority.kind !== 'file' || input.isNot || input.updateMode === 'none') {
    return { kind: 'none' }
  }
  switch (decision.kind) {
    case 'mismatch':
    case 'incomparable':
    case 'authority_unusable': {
      if (input.updateMode !== 'new') {
        return { kind: 'none' }
      }
      const flaws = recordRefusal(input.received, { recordUnfinished: input.recordUnfinished })
      return flaws === null ? { kind: 'keep' } : { kind: 'refused', flaws }
    }
    case 'equivalent':
    case 'write':
      return { kind: 'clear' }
    case 'unfinished':
    case 'carries_unknowns':
    case 'missing_under_not':
    case 'missing_not_written':
    case 'differs_as_expected':
    case 'not_different':
      return { kind: 'none' }
  }
}

function decideIgnoringFlaws(input: CaptureDecisionInput): CaptureDecision {
  const { authority, isNot } = input
  // `-u` replaces what does not match; `.not` never writes.
  const replaces = authority.kind === 'file' && !isNot && input.updateMode === 'all'
  let evidence: Evidence
  if (authority.kind === 'object') {
    evidence = authority.evidence
  } else {
    const file = authority.file
    switch (file.state) {
      case 'missing':
        return isNot
          ? { kind: 'missing_under_not' }
          : input.updateMode === 'none'
            ? { kind: 'missing_not_written' }
            : { kind: 'write', write: 'new', comparison: null }
      case 'unusable':
        return replaces
          ? { kind: 'write', write: 'replace', comparison: null }
          : { kind: 'authority_unusable', error: file.error }
      case 'present':
        evidence = file.evidence
    }
  }
  let comparison: Comparison
  try {
    comparison = compareCaptures(evidence, input.received, {
      timing: input.timing,
      terminal: input.terminal,
      sources: { authority: input.shown, reconstruction: 'this capture' },
    })
  } catch (error) {
    if (!isReaError(error)) {
      throw error
    }
    return replaces ? { kind: 'write', write: 'replace', comparison: null } : { kind: 'incomparable', error }
  }
  if (isNot) {
    return comparison.verdict === 'different'
      ? { kind: 'differs_as_expected', comparison }
      : { kind: 'not_different', comparison }
  }
  if (comparison.verdict === 'equivalent') {
    return { kind: 'equivalent', comparison }
  }
  return replaces ? { kind: 'write', write: 'replace', comparison } : { kind: 'mismatch', comparison }
}
