import pc from 'picocolors'
import {
  captureAssertionRecord,
  type RecordContext,
  traceAssertionRecord,
} from '../report/assertion-record.js'
import type { AssertionCounter } from './assertion-counter.js'
import { assertionLocation, failedAsWritten, report } from './assertion-report.js'
import { captureMatchResult, matchCapture } from '../authority/match-capture.js'
import { matchTrace } from '../authority/match-trace.js'
import {
  captureArguments,
  isAuthorityArgument,
  recordUnfinishedOf,
  acceptUnknownsOf,
  requireTest,
  terminalOf,
  timingOf,
} from './matcher-arguments.js'
import { matcherOptionsIssues, type MatcherOptions } from '../authority/matcher-options.js'
import { badAuthorityArgument, invalidMatcherOptions } from '../authority/messages.js'
import type { RunnerAdapter, RunnerMatcherState } from './runner-adapter.js'
import { updateModeOf } from '../authority/update-mode.js'
import { UsedAuthorities } from './used-authorities.js'

/** What the matchers share across a test file: the runner, the two counters and the authority files used. */
interface MatcherDeps {
  readonly adapter: RunnerAdapter
  readonly counter: AssertionCounter
  readonly entries: AssertionCounter
  readonly used: UsedAuthorities
}

/**
 * The matcher functions given to `expect.extend`, for either runner. `counter` numbers default authority
 * files; `entries` numbers every capture assertion of a test for the report folder.
 */
export function createMatchers(
  adapter: RunnerAdapter,
  counter: AssertionCounter,
  entries: AssertionCounter,
  used: UsedAuthorities = new UsedAuthorities(),
) {
  const deps: MatcherDeps = { adapter, counter, entries, used }
  // Each matcher is its body, with no wrapper frame: Vitest places an annotation by the stack of the call that
  // made it, within its stack trace limit, and the test file's frame must stay inside it.
  return { toMatchCapture: matchCaptureWith(deps), toSatisfyTrace: satisfyTraceWith(deps) }
}

/** Where an assertion's record goes in the report: the project, the attempt, the test and its entry number. */
function recordContext(
  deps: MatcherDeps,
  state: RunnerMatcherState,
  testPath: string,
  testName: string,
): RecordContext {
  return {
    project: deps.adapter.project(),
    attempt: {
      retry: state.task?.result?.retryCount ?? 0,
      repeat: state.task?.result?.repeatCount ?? 0,
    },
    testFile: testPath,
    testName,
    entry: deps.entries.next(state),
    location: assertionLocation(testPath),
    negated: state.isNot === true,
  }
}

/** `toMatchCapture(authority?, options?)`: compares with an authority file or Evidence, or records one. */
function matchCaptureWith(deps: MatcherDeps) {
  return function toMatchCapture(
    this: RunnerMatcherState,
    received: unknown,
    first?: unknown,
    second?: unknown,
  ) {
    const { adapter } = deps
    const { testPath, testName } = requireTest(this, 'toMatchCapture')
    const { authority, options } = captureArguments(first, second)
    const optionIssues = matcherOptionsIssues(options, 'options')
    if (!isAuthorityArgument(authority) || optionIssues.length > 0) {
      // Called from JavaScript with something else: say so instead of failing deep inside.
      const message = isAuthorityArgument(authority)
        ? invalidMatcherOptions('toMatchCapture(authority, options)', optionIssues)
        : badAuthorityArgument(typeof authority === 'string' ? 'an empty string' : typeof authority)
      const pass = this.isNot === true
      report(adapter, this, true, {}, () =>
        captureAssertionRecord(
          recordContext(deps, this, testPath, testName),
          captureMatchResult(pass, message),
          null,
          null,
        ),
      )
      return { pass, message: () => message }
    }
    const result = matchCapture({
      received,
      authority,
      testPath,
      testName,
      assertion: authority === undefined ? deps.counter.next(this) : 0,
      updateMode: updateModeOf(this.snapshotState),
      isNot: this.isNot === true,
      updateCommand: adapter.updateCommand,
      root: adapter.root(),
      color: pc.isColorSupported,
      timing: timingOf(options as MatcherOptions | undefined),
      recordUnfinished: recordUnfinishedOf(options as MatcherOptions | undefined),
      acceptUnknowns: acceptUnknownsOf(options as MatcherOptions | undefined),
      terminal: terminalOf(options as MatcherOptions | undefined),
    })
    if (result.authorityPath !== null) {
      deps.used.add(testPath, result.authorityPath)
    }
    for (const warning of result.warnings) {
      process.stderr.write(`${warning}\n`)
    }
    if (result.count !== null) {
      adapter.countSnapshot(this, result.count)
    }
    report(
      adapter,
      this,
      failedAsWritten(this, result.pass),
      { received: result.received, authority: result.authorityEvidence },
      () =>
        captureAssertionRecord(
          recordContext(deps, this, testPath, testName),
          result,
          result.received,
          result.authorityEvidence,
        ),
    )
    return {
      pass: result.pass,
      message: () => result.message,
      ...(result.actual === undefined ? {} : { actual: result.actual, expected: result.expected }),
    }
  }
}

/** `toSatisfyTrace(spec, options?)`: checks the capture's journal against a trace specification. */
function satisfyTraceWith(deps: MatcherDeps) {
  return function toSatisfyTrace(
    this: RunnerMatcherState,
    received: unknown,
    spec: unknown,
    options?: unknown,
  ) {
    const { testPath, testName } = requireTest(this, 'toSatisfyTrace')
    // A trace never reads times, so `timing` changes nothing here; it is checked so that a typo still shows.
    const optionIssues = matcherOptionsIssues(options, 'options')
    if (optionIssues.length > 0) {
      return {
        pass: this.isNot === true,
        message: () => invalidMatcherOptions('toSatisfyTrace(spec, options)', optionIssues),
      }
    }
    const result = matchTrace({ received, spec, testPath, isNot: this.isNot === true })
    report(deps.adapter, this, failedAsWritten(this, result.pass), { received: result.received }, () =>
      traceAssertionRecord(recordContext(deps, this, testPath, testName), result, result.received),
    )
    return { pass: result.pass, message: () => result.message }
  }
}
