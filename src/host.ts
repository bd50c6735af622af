/**
 * The surface of the core that REA's own plug-ins use: `rea/vitest`, `rea/jest` (matchers/), the Vitest and Jest
 * reporters (reporter/) and the CLI's dispatcher. Not part of the public API: it may change with them. Named
 * re-exports only; the public surface is `src/index.ts`.
 */
export { captureMatchResult, matchCapture } from './authority/match-capture.js'
export type { SnapshotCount } from './authority/match-capture.js'
export { matchTrace } from './authority/match-trace.js'
export { badAuthorityArgument, describeObsolete, invalidMatcherOptions } from './authority/messages.js'
export { checkObsoleteAuthorities, obsoleteHintWithoutReporter } from './authority/obsolete-check.js'
export { checkObsoleteInFile } from './authority/obsolete-in-file.js'
export type { ObsoleteCheckResult, ObsoleteFile } from './authority/obsolete-check.js'
export { matcherOptionsIssues, parseMatcherOptions } from './authority/matcher-options.js'
export { parseProjectOptions } from './authority/project-options.js'
export type { ProjectOptions } from './authority/project-options.js'
export {
  findObsoleteAuthorities,
  USED_AUTHORITIES_EXTENSION,
  USED_AUTHORITIES_KEY,
} from './authority/obsolete-authorities.js'
export type {
  CaptureFolder,
  ObsoleteAuthority,
  ObsoleteReason,
  TestFileRun,
} from './authority/obsolete-authorities.js'
export { captureEndedBeforeTimeout, runnerDeadlineMs } from './authority/runner-timeout.js'
export { updateModeOf } from './authority/update-mode.js'
export type { UpdateMode } from './authority/update-mode.js'
export { describeDifference } from './compare/format-comparison.js'
export type { TraceSpecInput } from './compare/trace/index.js'
export { relativePosix } from './internal/relative-posix.js'
export { startSupervisor } from './process/supervisor.js'
export {
  ASSERTION_ARTIFACT_TYPE,
  assertionRecordSchema,
  captureAssertionRecord,
  locationInTestFile,
  traceAssertionRecord,
} from './report/assertion-record.js'
export type { AssertionRecord, RecordContext } from './report/assertion-record.js'
export { renderAssertionImage, renderAssertionPage } from './report/assertion-page.js'
export type { AssertionCaptures } from './report/assertion-page.js'
export { junitAttachmentLines } from './report/junit-attachments.js'
export {
  announceReport,
  REPORT_DIR_ENV,
  REPORT_PENDING_ENV,
  REPORT_RECORD_ENV,
  withdrawPendingFolder,
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
