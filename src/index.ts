/**
 * REA's public API: the library's functions and the types of what they take and return, each documented in
 * `docs/api.md`, named re-exports only. A committed snapshot of the built declarations (`test/api/`) makes every
 * change to it a reviewed diff. What only REA's own front ends need is re-exported by `src/front-end.ts` instead.
 */
export { captureProcess } from './capture/capture-process.js'
export type { CaptureProcessOptions } from './capture/capture-process.js'
export type { CoverageOptions } from './coverage/capture-coverage.js'
export type { ProgressRecord } from './capture/progress.js'
export type { CaptureStatus, DueEvent } from './capture/live-status.js'
export { ReaError, isReaError } from './errors.js'
export type { ReaErrorCode, ReaIssue } from './errors.js'
export { processScenarioSchema } from './scenario/schema.js'
export type { ProcessScenario, ProcessScenarioInput, ScenarioEvent } from './scenario/schema.js'
export { validateScenario } from './scenario/validate.js'
export { readScenarioFile } from './scenario/read-scenario-file.js'
export type { ReadScenarioFileOptions } from './scenario/read-scenario-file.js'
export { testEnvironment, withTestDefaults } from './scenario/test-defaults.js'
export type { TestEnvironmentOptions } from './scenario/test-defaults.js'
export { TEST_ENVIRONMENT } from './scenario/test-environment.js'
export { evidenceSchema } from './evidence/schema.js'
export type { Evidence, ExitRecord, TerminalChunk, TerminalFrame } from './evidence/schema.js'
export { parseEvidence, readEvidenceFile, writeEvidenceFile } from './evidence/load.js'
export { serializeEvidence } from './evidence/serialize.js'
export { readJournal } from './evidence/journal.js'
export type { JournalEntry } from './evidence/journal.js'
export { checkCapabilities } from './capabilities.js'
export type { Capability, CapabilityReport, CapabilityStatus } from './capabilities.js'
export { compareCaptures } from './compare/compare-captures.js'
export type { CompareOptions } from './compare/compare-captures.js'
export { comparisonSchema } from './compare/comparison-schema.js'
export type {
  Comparison,
  Difference,
  Dimension,
  DimensionOutcome,
  DimensionResult,
  Location,
  TerminalLevel,
  TimingPolicy,
  Verdict,
} from './compare/comparison-schema.js'
export { formatComparison } from './compare/format-comparison.js'
export type { FormatComparisonOptions } from './compare/format-comparison.js'
export { firstScreenRowChange } from './compare/screen-row-change.js'
export type { ScreenRowChange } from './compare/screen-row-change.js'
export {
  checkTrace,
  formatTraceResult,
  parseTraceSpec,
  readTraceSpecFile,
  traceResultSchema,
  traceSpecSchema,
} from './compare/trace/index.js'
export type { TraceResult, TraceSpec } from './compare/trace/index.js'
export { MATCHER_TIMING_DEFAULT } from './authority/matcher-options.js'
export type { MatcherOptions } from './authority/matcher-options.js'
export { exportAsciicast } from './export/asciicast.js'
export type { AsciicastVersion, ExportAsciicastOptions } from './export/asciicast.js'
export { renderDivergencePage } from './view/render-page.js'
export type { DivergencePageInput } from './view/render-page.js'
export { renderDivergenceSvg } from './view/divergence-svg.js'
export type { DivergenceSvgInput } from './view/divergence-svg.js'
export { exportScreenSvg } from './view/export-svg.js'
export { parseScreenMoment } from './view/screen-moment.js'
export type { ScreenMoment } from './view/screen-moment.js'
