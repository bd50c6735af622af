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
export const REPORT_RECORDS_ENV = 'REA_REPORT_RECORDS'

/** Sets the variables before the runner starts its workers. */
export function announceReport(
  outputDir: string,
  root: string,
  attachments: string,
  records: string | null,
): void {
  process.env[REPORT_DIR_ENV] = outputDir
  process.env[REPORT_ROOT_ENV] = root
  process.env[REPORT_ATTACHMENTS_ENV] = attachments
  if (records === null) {
    withdrawRecordsFolder()
  } else {
    process.env[REPORT_RECORDS_ENV] = records
  }
}

/** Jest: no records this run (the folder could not be prepared). */
export function withdrawRecordsFolder(): void {
  Reflect.deleteProperty(process.env, REPORT_RECORDS_ENV)
}
