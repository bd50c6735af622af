import path from 'node:path'
import {
  checkTrace,
  formatTraceResult,
  parseTraceSpec,
  readTraceSpecFileSync,
} from '../compare/trace/index.js'
import type { TraceResult, TraceSpec } from '../compare/trace/index.js'
import { formatReaError, isReaError } from '../errors.js'
import { parseEvidence } from '../evidence/load.js'
import type { Evidence } from '../evidence/schema.js'
import { isValidated } from '../evidence/validated.js'

export interface TraceMatchRequest {
  readonly received: unknown
  /** A specification object, or a path to a specification file relative to the test file. */
  readonly spec: unknown
  readonly testPath: string
  readonly isNot: boolean
}

export interface TraceMatchResult {
  /** In the runner's sense: the runner inverts it for `.not`. */
  readonly pass: boolean
  readonly message: string
  readonly result: TraceResult | null
  /** The received capture once it was read as Evidence. */
  readonly received: Evidence | null
}

/**
 * The logic of `toSatisfyTrace`: `checkTrace` over the received capture. `.not` holds only for a proven
 * violation; an unknown trace verdict fails both ways, with its reasons.
 */
export function matchTrace(request: TraceMatchRequest): TraceMatchResult {
  const name = request.isNot ? 'not.toSatisfyTrace' : 'toSatisfyTrace'
  let evidence: Evidence | null = null
  const failed = (message: string, result: TraceResult | null = null): TraceMatchResult => ({
    pass: request.isNot,
    message: `expect(capture).${name}(): ${message}`,
    result,
    received: evidence,
  })
  let spec: TraceSpec
  try {
    evidence = isValidated(request.received)
      ? request.received
      : parseEvidence(request.received, 'The received value')
    spec =
      typeof request.spec === 'string'
        ? readTraceSpecFileSync(path.resolve(path.dirname(request.testPath), request.spec))
        : parseTraceSpec(request.spec, 'The trace specification')
  } catch (error) {
    if (isReaError(error)) {
      return failed(formatReaError(error))
    }
    throw error
  }
  const result = checkTrace(evidence, spec)
  const details = formatTraceResult(result).join('\n')
  if (request.isNot) {
    return result.verdict === 'violated'
      ? {
          pass: false,
          message: `expect(capture).not.toSatisfyTrace(): the trace is violated, as expected.\n${details}`,
          result,
          received: evidence,
        }
      : failed(`the trace is ${result.verdict}; .not holds only for a proven violation.\n${details}`, result)
  }
  return result.verdict === 'satisfied'
    ? { pass: true, message: 'the capture satisfies the trace', result, received: evidence }
    : failed(
        result.verdict === 'violated'
          ? `the capture violates the trace.\n${details}`
          : `whether the capture satisfies the trace is unknown (never satisfied).\n${details}`,
        result,
      )
}
