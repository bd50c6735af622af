/**
 * How a reporter tells the matchers in the workers it starts where the report goes. Workers inherit the
 * environment of the runner's main process, where reporters are constructed before any worker starts.
 */

/** Absolute path of the report folder. */
export const REPORT_DIR_ENV = 'REA_REPORT_DIR'
/** The runner root the reporter names entry folders from. */
export const REPORT_ROOT_ENV = 'REA_REPORT_ROOT'
/** `failures`, `all` or `off`: which assertions print `[[ATTACHMENT|path]]` lines. */
export const REPORT_ATTACHMENTS_ENV = 'REA_REPORT_JUNIT_ATTACHMENTS'
/** `1`: record assertions even though no reporter runs here (Vitest shards writing only blob reports). */
export const REPORT_RECORD_ENV = 'REA_REPORT_RECORD'
/** Jest only: where matchers write their records for the reporter to collect. */
export const REPORT_PENDING_ENV = 'REA_REPORT_PENDING'

/** Sets the variables before the runner starts its workers. */
export function announceReport(
  outputDir: string,
  root: string,
  attachments: string,
  pending: string | null,
): void {
  process.env[REPORT_DIR_ENV] = outputDir
  process.env[REPORT_ROOT_ENV] = root
  process.env[REPORT_ATTACHMENTS_ENV] = attachments
  if (pending === null) {
    withdrawPendingFolder()
  } else {
    process.env[REPORT_PENDING_ENV] = pending
  }
}

/** Jest: no records this run (the folder could not be prepared). */
export function withdrawPendingFolder(): void {
  Reflect.deleteProperty(process.env, REPORT_PENDING_ENV)
}
