import type { Comparison } from '../compare/comparison-schema.js'
import { formatComparison } from '../compare/format-comparison.js'
import { formatTraceResult, type TraceResult } from '../compare/trace/index.js'
import { quoteRowChange, type ScreenRowChange } from '../compare/screen-row-change.js'
import { formatReaError, type ReaError, type ReaIssue } from '../errors.js'
import { describeFlaw } from '../evidence/describe-run.js'
import type { Evidence } from '../evidence/schema.js'
import { lastScreen, screenBox } from '../evidence/screen-text.js'
import { escapeControlCharacters, showName } from '../internal/escape-controls.js'
import { relativePosix } from '../internal/relative-posix.js'
import type { CaptureDecision } from './capture-decision.js'
import { describeAuthorityUnknowns, unknownReasons } from './authority-unknowns.js'
import type { MachineValueLeft } from './machine-values-left.js'
import type { ObsoleteAuthority } from './obsolete-authorities.js'
import type { RunFlaw } from '../evidence/run-flaws.js'

/** What became of the pending capture a local mismatch keeps for review (docs/review.md). */
export type PendingOutcome =
  | { readonly state: 'written'; readonly path: string; readonly shown: string; readonly replaced: boolean }
  | { readonly state: 'failed'; readonly shown: string; readonly code: string }
  | { readonly state: 'refused'; readonly flaws: readonly RunFlaw[] }

/** The command that reviews pending captures, as a user types it in a project that installed REA. */
export const REVIEW_COMMAND = 'npx rea review'

/**
 * Every message `toMatchCapture` and `toSatisfyTrace` print, in one place. Built only when a result is made,
 * and the comparison's text only for failures: formatting costs more than comparing a short capture.
 */
export interface MessageContext {
  /** `toMatchCapture` or `not.toMatchCapture`. */
  readonly name: string
  /** The authority as people know it: a path relative to the root, or "the given Evidence object". */
  readonly shown: string
  readonly fromFile: boolean
  readonly updateCommand: string
  readonly color: boolean
  /** The capture under test, for what a refused write shows of it. */
  readonly received: Evidence
  /** The first screen row that reads differently from the authority's, when both screens were rendered. */
  readonly rowChange?: ScreenRowChange | null
  /** The pending capture kept for review, when the decision keeps one. */
  readonly pending?: PendingOutcome | null
}

export const receivedNotEvidence = (name: string, error: ReaError): string =>
  `expect(capture).${name}() needs the Evidence returned by captureProcess.\n${formatReaError(error)}`

export const authorityObjectInvalid = (error: ReaError): string => formatReaError(error)

export const badAuthorityArgument = (got: string): string =>
  `expect(capture).toMatchCapture(authority, options): the authority must be omitted, a non-empty path or an Evidence object; got ${got}.`

/** Options of one assertion that are not valid: the assertion fails, naming each one. */
export const invalidMatcherOptions = (call: string, issues: readonly ReaIssue[]): string =>
  [
    `expect(capture).${call}: the options are not valid.`,
    ...issues.map((issue) => `  - ${issue.path}: ${issue.message}`),
  ].join('\n')

export const authorityWriteFailed = (shown: string, verb: string, code: string): string =>
  `expect(capture).toMatchCapture(): the authority ${showName(shown)} could not be ${verb} (${code}).`

const MACHINE_VALUE_NAMES: Readonly<Record<MachineValueLeft['name'], string>> = {
  root: 'the checkout’s path',
  cwd: 'the working directory',
  home: 'the home directory',
  tmpdir: 'the temporary directory',
  user: 'the user name',
  hostname: 'the host name',
}

/**
 * An authority was stored that still holds values of this machine: each one, where it was found, and the rule that
 * covers it (a placeholder the scenario does not name, or a redaction where the placeholder's value stayed).
 */
export function machineValuesWarning(shown: string, found: readonly MachineValueLeft[]): string {
  const inactive = found.filter((entry) => !entry.active).map((entry) => entry.name)
  return [
    `REA: the authority ${showName(shown)} holds values of this machine, so it may fail in another clone or on another machine and tells readers of the file about this one:`,
    ...found.map(
      (entry) =>
        `  - ${MACHINE_VALUE_NAMES[entry.name]} in ${entry.at}: ${
          entry.active
            ? `the placeholder ${entry.name} is on, but this text is outside what it replaces (a wait’s text, a value cut where output paused); a redaction covers it`
            : `the placeholder ${entry.name} replaces it`
        }`,
    ),
    ...(inactive.length === 0
      ? []
      : [
          `Add to the scenario: "normalization": {"placeholders": ${JSON.stringify(inactive)}} with the ones it names, or leave "placeholders" out for the test plugin’s defaults (docs/authority-files.md#recorded-here-checked-anywhere).`,
        ]),
  ].join('\n')
}

/**
 * The message for a decision; `write` decisions are described once the file was written. Test and authority
 * paths are the user's, shown in the runner's terminal: their control characters are made visible.
 */
export function captureMessage(decision: CaptureDecision, context: MessageContext): string {
  const { name, updateCommand } = context
  const shown = showName(context.shown)
  const details = (comparison: Comparison): string =>
    formatComparison(comparison, { color: context.color, rowChange: context.rowChange ?? null }).trimEnd()
  switch (decision.kind) {
    case 'write':
      return `authority ${shown} ${decision.write === 'new' ? 'written' : 'rewritten'}`
    case 'unfinished':
      return unfinishedMessage(decision, shown, context)
    case 'carries_unknowns':
      return carriesUnknownsMessage(decision, shown, context)
    case 'missing_under_not':
      return `expect(capture).${name}(): there is no authority to differ from: ${shown} does not exist.`
    case 'missing_not_written':
      return (
        `expect(capture).${name}(): the authority ${shown} does not exist, and it was not written because ` +
        `this run does not write authorities (CI is set, or the runner was told not to update).\n` +
        `Record it locally (run the test without CI, or with \`${updateCommand}\`), review it, and commit it.`
      )
    case 'authority_unusable':
      return (
        `expect(capture).${name}(): the authority ${shown} cannot be used.\n${formatReaError(decision.error)}\n` +
        (pendingAdvice(context) ??
          `If the capture is right, re-record the authority with \`${updateCommand}\`.`)
      )
    case 'incomparable':
      return (
        `expect(capture).${name}(): the capture cannot be compared with ${shown}.\n${formatReaError(decision.error)}` +
        (context.fromFile
          ? `\n${pendingAdvice(context) ?? `If the scenario changed on purpose, re-record with \`${updateCommand}\`.`}`
          : '')
      )
    case 'differs_as_expected':
      return `expect(capture).not.toMatchCapture(): the capture differs from ${shown}, as expected.`
    case 'not_different':
      return decision.comparison.verdict === 'equivalent'
        ? `expect(capture).not.toMatchCapture(): the capture is equivalent to ${shown}.\n\n${details(decision.comparison)}`
        : `expect(capture).not.toMatchCapture(): a difference from ${shown} could not be established; unknown is neither equal nor different.\n\n${details(decision.comparison)}`
    case 'equivalent':
      return `the capture is equivalent to ${shown}`
    case 'mismatch': {
      const change = context.rowChange ?? null
      const headline =
        decision.comparison.verdict === 'different'
          ? `the capture differs from its authority ${shown}${change === null ? '' : `: ${quoteRowChange(change)}`}`
          : `equivalence with ${shown} could not be established (unknown is never equal)`
      return (
        `expect(capture).toMatchCapture(): ${headline}.\n\n${details(decision.comparison)}\n\n` +
        (context.fromFile
          ? `Authority: ${shown}\n${pendingAdvice(context) ?? `If the new behaviour is intended, re-record with \`${updateCommand}\` and review the change.`}`
          : 'The authority is an Evidence object given in the test.')
      )
    }
  }
}

/**
 * What to do about a mismatch once a pending capture was kept (or could not be): its path and the review command,
 * or why there is none. Null when the run keeps none (CI, `-u`, `.not`): the caller's advice stands.
 */
function pendingAdvice(context: MessageContext): string | null {
  const pending = context.pending
  const update = `\`${context.updateCommand}\``
  switch (pending?.state) {
    case undefined:
      return null
    case 'written':
      return (
        `The new capture is pending review in ${showName(pending.shown)}: accept or reject it with \`${REVIEW_COMMAND}\`, or re-record every mismatch with ${update}.` +
        (pending.replaced
          ? ' It replaces the pending capture an earlier run (or another test using this authority) left there.'
          : '')
      )
    case 'failed':
      return `The new capture could not be kept for review in ${showName(pending.shown)} (${pending.code}): make that folder writable and run again, or re-record with ${update}.`
    case 'refused':
      return [
        'The new capture was not kept for review: it did not run as its scenario expects, so it cannot stand as the authority.',
        ...pending.flaws.map((flaw) => `  - ${escapeControlCharacters(describeFlaw(flaw))}`),
      ].join('\n')
  }
}

/** A pending capture a run made stale (it matched or rewrote the authority) could not be removed. */
export const pendingNotRemovedWarning = (shown: string, code: string): string =>
  `REA: the stale pending capture ${showName(shown)} could not be removed (${code}); delete it, or \`${REVIEW_COMMAND}\` will still offer it.`

/**
 * Why an authority was not written from this capture: each flaw on a line (the wait that never came, with what
 * it waited for and since when; a cancellation; an unexpected deadline), the last screen, and how to go on.
 */
function unfinishedMessage(
  decision: Extract<CaptureDecision, { kind: 'unfinished' }>,
  shown: string,
  context: MessageContext,
): string {
  const screen = lastScreen(context.received)
  return [
    `expect(capture).${context.name}(): the authority ${shown} was not ${decision.write === 'new' ? 'written' : 'rewritten'}: this capture did not run as its scenario expects, so it cannot stand as the authority.`,
    ...decision.flaws.map((flaw) => `  - ${escapeControlCharacters(describeFlaw(flaw))}`),
    ...(screen === null ? ['No screen was rendered.'] : screenBox(screen, 'Last screen')),
    'Fix the scenario or the program and run the test again. To record such a run on purpose, pass ' +
      '{ recordUnfinished: true } to toMatchCapture or configureRea (docs/authority-files.md#unfinished-runs).',
  ].join('\n')
}

/**
 * Why an authority was not written from a capture carrying unknowns: each unknown by its reason code, with its
 * detail and what removes it, and how to record it anyway.
 */
function carriesUnknownsMessage(
  decision: Extract<CaptureDecision, { kind: 'carries_unknowns' }>,
  shown: string,
  context: MessageContext,
): string {
  const reasons = unknownReasons(decision.unknowns)
  return [
    `expect(capture).${context.name}(): the authority ${shown} was not ${decision.write === 'new' ? 'written' : 'rewritten'}: this capture carries ${decision.unknowns.length === 1 ? 'an unknown' : `${decision.unknowns.length} unknowns`}, so every later comparison with it would be unknown, whatever the program does.`,
    ...describeAuthorityUnknowns(decision.unknowns),
    `To record it with ${reasons.length === 1 ? 'this unknown' : 'these unknowns'} on purpose, name ${reasons.length === 1 ? 'its reason' : 'their reasons'}: ` +
      `toMatchCapture({ acceptUnknowns: ${JSON.stringify(reasons)} }) or configureRea({ acceptUnknowns: ${JSON.stringify(reasons)} }) (docs/authority-files.md#unknowns).`,
  ].join('\n')
}

/** `toSatisfyTrace`'s messages: the verdict in words, then the formatted result. */
export function traceMessage(result: TraceResult, isNot: boolean): string {
  const details = formatTraceResult(result).join('\n')
  if (isNot) {
    return result.verdict === 'violated'
      ? `expect(capture).not.toSatisfyTrace(): the trace is violated, as expected.\n${details}`
      : `expect(capture).not.toSatisfyTrace(): the trace is ${result.verdict}; .not holds only for a proven violation.\n${details}`
  }
  switch (result.verdict) {
    case 'satisfied':
      return 'the capture satisfies the trace'
    case 'violated':
      return `expect(capture).toSatisfyTrace(): the capture violates the trace.\n${details}`
    case 'unknown':
      return `expect(capture).toSatisfyTrace(): whether the capture satisfies the trace is unknown (never satisfied).\n${details}`
  }
}

export const traceInputInvalid = (isNot: boolean, error: ReaError): string =>
  `expect(capture).${isNot ? 'not.toSatisfyTrace' : 'toSatisfyTrace'}(): ${formatReaError(error)}`

/** One obsolete authority for people: its path under the root and, for a deleted test file, that. */
export function describeObsolete(entry: ObsoleteAuthority, root: string): string {
  return `${showName(relativePosix(root, entry.file))}${entry.reason === 'test_file_deleted' ? ' (its test file is gone)' : ''}`
}

/** Why a CI run fails on obsolete authorities, with each file and how to remove them. */
export function obsoleteAuthoritiesFailure(
  obsolete: readonly ObsoleteAuthority[],
  root: string,
  updateCommand: string,
): string {
  const count = obsolete.length
  return [
    `${count} obsolete authority ${count === 1 ? 'file' : 'files'} found when no update is expected (a CI run): no assertion of this run used ${count === 1 ? 'it' : 'them'}.`,
    ...obsolete.map((entry) => `  · ${describeObsolete(entry, root)}`),
    `Remove ${count === 1 ? 'it' : 'them'} with \`${updateCommand}\` (a run of the whole project) or delete ${count === 1 ? 'it' : 'them'}, and commit.`,
  ].join('\n')
}

/** `-u` cannot remove obsolete authorities without the reporter: said once per test file that has unused ones. */
export const reporterNeededForObsolete = (
  testPath: string,
  count: number,
  reporter: string,
  root: string,
): string =>
  `rea: ${showName(relativePosix(root, testPath))}: ${count} authority ${count === 1 ? 'file' : 'files'} in its __captures__ folder ` +
  `${count === 1 ? 'was' : 'were'} not used by this run. Obsolete authorities are found and removed only with ` +
  `${reporter} in your reporters (docs/authority-files.md#obsolete-authority-files).`
