/**
 * REA's public API: the library's functions and types, named re-exports only. What only the front ends need (the
 * CLI, the MCP server, the matchers, the reporters) is in `src/front-end.ts` and `src/host.ts` instead.
 */
export { captureProcess } from './capture/capture-process.js'
export type { CaptureProcessOptions } from './capture/capture-process.js'
export type { CaptureDisposition, CapturePhase, CleanupStates, ProgressRecord } from './capture/progress.js'
export { ReaError, formatReaError, isReaError } from './errors.js'
export type { ReaErrorCode, ReaIssue } from './errors.js'
export { processScenarioSchema } from './scenario/schema.js'
export type { ProcessScenario, ProcessScenarioInput, ScenarioEvent } from './scenario/schema.js'
export { validateScenario } from './scenario/validate.js'
export { readScenarioFile } from './scenario/read-scenario-file.js'
export { TEST_DEFAULT_PLACEHOLDERS, testEnvironment, withTestDefaults } from './scenario/test-defaults.js'
export type { TestEnvironmentOptions } from './scenario/test-defaults.js'
export { TEST_ENVIRONMENT } from './scenario/test-environment.js'
export type { ReadScenarioFileOptions } from './scenario/read-scenario-file.js'
export { evidenceSchema } from './evidence/schema.js'
export type { Evidence, ExitRecord, TerminalChunk, TerminalFrame } from './evidence/schema.js'
export { EVIDENCE_FORMAT, EVIDENCE_FORMAT_VERSION } from './evidence/format.js'
export { REA_VERSION } from './version.js'
export {
  parseEvidence,
  parseEvidenceText,
  readEvidenceFile,
  readEvidenceFileSync,
  writeEvidenceFile,
} from './evidence/load.js'
export { serializeEvidence } from './evidence/serialize.js'
export { readJournal } from './evidence/journal.js'
export type { JournalEntry } from './evidence/journal.js'
export { summarizeEvidence } from './evidence/summary.js'
export type { SummaryOptions } from './evidence/summary.js'
export { canonicalJson, canonicalJsonDocument } from './evidence/canonical-json.js'
export { jsonSchemaFor, SCHEMA_NAMES } from './json-schemas.js'
export type { SchemaName } from './json-schemas.js'
export { checkCapabilities } from './capabilities.js'
export type { Capability, CapabilityReport, CapabilityStatus } from './capabilities.js'
export { compareCaptures } from './compare/compare-captures.js'
export type { CompareOptions } from './compare/compare-captures.js'
export {
  comparisonSchema,
  COMPARISON_FORMAT,
  COMPARISON_FORMAT_VERSION,
  DIMENSIONS,
  TERMINAL_LEVELS,
  TIMING_POLICIES,
} from './compare/comparison-schema.js'
export type {
  Comparison,
  Difference,
  Dimension,
  DimensionOutcome,
  DimensionResult,
  Location,
  NamedTimingPolicy,
  TerminalLevel,
  TimingPolicy,
  TimingTolerance,
  Verdict,
} from './compare/comparison-schema.js'
export { parseTimingPolicy, TIMING_TOLERANCE, timingPolicyIssues } from './compare/timing.js'
export { parseTerminalLevel, terminalLevelIssues } from './compare/terminal-level.js'
export { describeLocation, formatComparison } from './compare/format-comparison.js'
export type { FormatComparisonOptions } from './compare/format-comparison.js'
export {
  checkTrace,
  formatTraceResult,
  parseTraceSpec,
  readTraceSpecFile,
  readTraceSpecFileSync,
  traceResultSchema,
  traceSpecSchema,
} from './compare/trace/index.js'
export type { TraceResult, TraceSpec } from './compare/trace/index.js'
export { recordScenario, recordedTestFile, replayRecording } from './record/record-scenario.js'
export type { RecordScenarioOptions, Recording, RecordingReplay } from './record/record-scenario.js'
export type { PersonTerminal } from './record/record-session.js'
export { TEST_RUNNERS } from './record/test-file.js'
export type { TestRunner } from './record/test-file.js'
export { authorityPathFor } from './authority/authority-path.js'
export { MATCHER_TIMING_DEFAULT } from './authority/matcher-options.js'
export type { MatcherOptions } from './authority/matcher-options.js'
export { exportAsciicast, ASCIICAST_VERSIONS } from './export/asciicast.js'
export type { AsciicastVersion, ExportAsciicastOptions } from './export/asciicast.js'
export { renderDivergencePage } from './view/render-page.js'
export type { DivergencePageInput } from './view/render-page.js'
export { renderDivergenceSvg } from './view/divergence-svg.js'
export type { DivergenceSvgInput } from './view/divergence-svg.js'
