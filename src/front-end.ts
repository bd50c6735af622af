/**
 * The one surface of the core for REA's front ends: the CLI, the MCP server, the matchers (`rea-capture/vitest`,
 * `rea-capture/jest`) and the reporters. Not part of the public API (`src/index.ts`, documented in docs/api.md):
 * it changes with the front ends. `eslint.config.js` lets the front ends reach the core only through the names
 * re-exported here; named re-exports only. The CLI imports each name from the module that defines it (see
 * docs/architecture.md), so the list below is also what the CLI may use.
 */

// The library, as the public API gives it.
export { captureProcess } from './capture/capture-process.js'
export type { CaptureProcessOptions } from './capture/capture-process.js'
export type { CoverageOptions } from './coverage/capture-coverage.js'
export type { ProgressRecord } from './capture/progress.js'
export type { CaptureStatus, DueEvent } from './capture/live-status.js'
export { ReaError, formatReaError, isReaError } from './errors.js'
export type { ReaErrorCode, ReaIssue } from './errors.js'
export { processScenarioSchema } from './scenario/schema.js'
export type { ProcessScenarioInput } from './scenario/schema.js'
export { validateScenario } from './scenario/validate.js'
export { readScenarioFile } from './scenario/read-scenario-file.js'
export { withTestDefaults } from './scenario/test-defaults.js'
export type { Evidence } from './evidence/schema.js'
export { parseEvidence, parseEvidenceText, readEvidenceFile } from './evidence/load.js'
export { serializeEvidence } from './evidence/serialize.js'
export { canonicalJsonDocument } from './evidence/canonical-json.js'
export { summarizeEvidence } from './evidence/summary.js'
export { REA_VERSION } from './version.js'
export { checkCapabilities } from './capabilities.js'
export type { CapabilityReport } from './capabilities.js'
export { jsonSchemaFor, SCHEMA_NAMES } from './json-schemas.js'
export type { SchemaName } from './json-schemas.js'
export { compareCaptures } from './compare/compare-captures.js'
export { DIMENSIONS, TERMINAL_LEVELS, TIMING_POLICIES } from './compare/comparison-schema.js'
export type { Comparison, Difference, TerminalLevel, TimingPolicy } from './compare/comparison-schema.js'
export { parseTimingPolicy, timingPolicyIssues } from './compare/timing.js'
export { firstScreenRowChange } from './compare/screen-row-change.js'
export type { ScreenRowChange } from './compare/screen-row-change.js'
export { parseTerminalLevel, terminalLevelIssues } from './compare/terminal/level.js'
export { describeDifference, formatComparison } from './compare/format-comparison.js'
export { formatTraceResult, parseTraceSpec, readTraceSpecFile } from './compare/trace/index.js'
export type { TraceSpec, TraceSpecInput } from './compare/trace/index.js'
export { ASCIICAST_VERSIONS, exportAsciicast } from './export/asciicast.js'
export { renderDivergencePage } from './view/render-page.js'
export { exportScreenSvg } from './view/export-svg.js'
export { parseScreenMoment, SCREEN_MOMENT_SYNTAX } from './view/screen-moment.js'
export type { ScreenMoment } from './view/screen-moment.js'

// Recording a scenario by using the program (`rea record`).
export { captureReplay, recordScenario, recordedTestFile, replayRecording } from './record/record-scenario.js'
export type { Recording } from './record/record-scenario.js'
export { TEST_RUNNERS } from './record/test-file.js'
export { programName } from './record/program-name.js'
export { parsePromptRule } from './record/prompt-rules.js'
export { recordingStarted, summarizeRecording } from './record/recording-summary.js'
export { MAX_VERIFY_REPLAYS, verifyRecording } from './record/verify-recording.js'

// Files the front ends write, and text they show people.
export { escapeControlCharacters, quoteText, showCommandLine, showName } from './internal/escape-controls.js'
export { outputPathIssues } from './internal/output-path.js'
export type { OutputInput } from './internal/output-path.js'
export { privateCopyPath } from './internal/private-copy.js'
export { writeFileAtomic, writeFileAtomicSync } from './internal/write-file-atomic.js'
export { describeSystemError } from './internal/system-error.js'
export { errorMessage } from './internal/error-message.js'
export { relativePosix } from './internal/relative-posix.js'
export { settleEvidencePair } from './evidence/read-pair.js'
export { describeCondition, ms } from './evidence/describe-run.js'

// Markdown console blocks as tests (`rea test`, the Vitest plugin, the Jest transform): docs/markdown-cases.md.
export { findMarkdownFiles } from './markdown/find-files.js'
export { blockDetails, blockTitle } from './markdown/format-block.js'
export { formatMarkdownIssue } from './markdown/markdown-issue.js'
export type { MarkdownIssue } from './markdown/markdown-issue.js'
export { blockRecords, pagesOf, writeMarkdownReports } from './markdown/markdown-report.js'
export { readMarkdownFile, runMarkdownFiles } from './markdown/run-files.js'
export type { FileRun } from './markdown/run-files.js'

// The process that cleans up if REA itself dies, started early by the CLI.
export { startSupervisor } from './process/supervisor.js'

// Authority files and their decisions.
export { matchCapture } from './authority/match-capture.js'
export type { SnapshotCount } from './authority/match-capture.js'
export { describeObsolete } from './authority/messages.js'
export { checkObsoleteAuthorities, hintWithoutReporter } from './authority/obsolete-check.js'
export { checkObsoleteInFile } from './authority/obsolete-in-file.js'
export type { ObsoleteCheckResult, ObsoleteFile } from './authority/obsolete-check.js'
export type { MatcherOptions } from './authority/matcher-options.js'
export { parseProjectOptions, projectOptions, updateProjectOptions } from './authority/project-options.js'
export type { ProjectOptions } from './authority/project-options.js'
export { USED_AUTHORITIES_EXTENSION, USED_AUTHORITIES_KEY } from './authority/obsolete-authorities.js'
export type { TestFileRun } from './authority/obsolete-authorities.js'
export { isCi, updateModeOf } from './authority/update-mode.js'
export type { UpdateMode } from './authority/update-mode.js'

// Pending captures and their review (`rea review`, the MCP server's pending tools).
export {
  acceptPendingCaptures,
  listPendingCaptures,
  pathsFor,
  rejectPendingCaptures,
  showPendingCapture,
} from './review/review-requests.js'
export type { ReviewRequest, ReviewResult } from './review/review-requests.js'
export type { AcceptOptions } from './review/review-actions.js'
export { runReviewSession } from './review/review-session.js'

// What the runners' plug-ins share: the matcher functions, assertion numbering, the captures of one test (which
// end before the test's timeout and never outlive it).
export { AssertionCounter } from './runner/assertion-counter.js'
export { createMatchers } from './runner/matcher-functions.js'
export type { RunnerAdapter, RunnerMatcherState } from './runner/runner-adapter.js'
export { UsedAuthorities } from './runner/used-authorities.js'
export { RunnerDeadline } from './runner/runner-deadline.js'
export type { BeforeTimeout } from './runner/runner-deadline.js'
export { TestCaptures } from './runner/test-captures.js'
export { obsoleteAuthoritiesError, obsoleteCheckAtFileEnd } from './runner/obsolete-failure.js'
export { deletedTestFileFailures } from './runner/deleted-test-files.js'
export type { DeletedTestFileFailure } from './runner/deleted-test-files.js'
export { defineMarkdownSuite } from './runner/markdown-suite.js'
export type { TestCapturesOptions } from './runner/test-captures.js'

// Assertion records and the report folder, for the reporters.
export { ASSERTION_ARTIFACT_TYPE, assertionRecordSchema } from './report/assertion-record.js'
export type { AssertionRecord } from './report/assertion-record.js'
export {
  renderAssertionFinalScreens,
  renderAssertionImage,
  renderAssertionPage,
} from './report/assertion-page.js'
export type { AssertionCaptures } from './report/assertion-page.js'
export {
  announceReport,
  REPORT_DIR_ENV,
  REPORT_RECORD_ENV,
  REPORT_RECORDS_ENV,
  withdrawRecordsFolder,
} from './report/report-environment.js'
export {
  buildReportModel,
  describeDivergence,
  failureHeadline,
  failuresByPriority,
  REPORT_FORMAT,
  REPORT_FORMAT_VERSION,
} from './report/report-model.js'
export type { ReportEntry, ReportModel } from './report/report-model.js'

// The coverage of captured programs, for the runners' glue (docs/coverage.md).
export {
  collectCaptureCoverage,
  stopCollectingCaptureCoverage,
  takeCapturedScripts,
  workerCoverageFolder,
} from './runner/capture-coverage.js'
export type { CapturedScript, V8ScriptCoverage } from './coverage/take-capture-coverage.js'
export { scriptSourceMap, writeSourceMap } from './coverage/script-source-map.js'
export type { RawSourceMap } from './coverage/script-source-map.js'
export { RECORDS_DIRECTORY, resetReportFolder, writeReport } from './report/artifact-writer.js'
export { obsoleteLine, summaryMarkdown, totalsLine } from './report/report-markdown.js'
