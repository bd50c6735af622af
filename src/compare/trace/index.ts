export { checkTrace, MAX_REPORTED_VIOLATIONS } from './check-trace.js'
export { formatTraceResult } from './format-result.js'
export { MAX_LISTED_OBSERVATIONS } from './match-events.js'
export { parseTraceSpec, readTraceSpecFile, readTraceSpecFileSync } from './parse-spec.js'
export { traceResultSchema } from './result-schema.js'
export type {
  TraceConstraintResult,
  TraceEventResult,
  TraceObservation,
  TraceResult,
  TraceUnknown,
  TraceViolation,
} from './result-schema.js'
export { TRACE_SPEC_FORMAT, TRACE_SPEC_FORMAT_VERSION, traceSpecSchema } from './spec-schema.js'
export type { OrderConstraint, TraceEvent, TraceSpec, TraceSpecInput } from './spec-schema.js'
