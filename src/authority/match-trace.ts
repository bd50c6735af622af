import path from 'node:path'
import { checkTrace, parseTraceSpec, readTraceSpecFileSync } from '../compare/trace/index.js'
import type { TraceResult, TraceSpec } from '../compare/trace/index.js'
import { isReaError } from '../errors.js'
import { parseEvidence } from '../evidence/load.js'
import type { Evidence } from '../evidence/schema.js'
import { isValidated } from '../evidence/validated.js'
import { traceInputInvalid, traceMessage } from './messages.js'

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
  let evidence: Evidence | null = null
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
      return {
        pass: request.isNot,
        message: traceInputInvalid(request.isNot, error),
        result: null,
        received: evidence,
      }
    }
    throw error
  }
  const result = checkTrace(evidence, spec)
  // `.not` holds only for a proven violation: the runner inverts `pass`, so it is true only then.
  const satisfied = request.isNot ? result.verdict === 'violated' : result.verdict === 'satisfied'
  return {
    pass: request.isNot ? !satisfied : satisfied,
    message: traceMessage(result, request.isNot),
    result,
    received: evidence,
  }
}
