import { relativePosix } from '../internal/relative-posix.js'
import type { AssertionRecord } from './assertion-record.js'
import { REPORT_ATTACHMENTS_ENV, REPORT_DIR_ENV, REPORT_ROOT_ENV } from './report-environment.js'
import { entryDirectory, entryFiles } from './report-model.js'

/**
 * `[[ATTACHMENT|path]]` lines for a test's output: the convention JUnit consumers (Jenkins junit-attachments,
 * GitLab) read from a test case's `<system-out>`, pointing at the files the reporter will write for this
 * assertion. Empty when no reporter folder was announced, attachments are off, or only failures get them.
 */
export function junitAttachmentLines(
  record: AssertionRecord,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): string[] {
  const outputDir = environment[REPORT_DIR_ENV]
  const mode = environment[REPORT_ATTACHMENTS_ENV] ?? 'failures'
  if (
    outputDir === undefined ||
    outputDir === '' ||
    mode === 'off' ||
    (mode === 'failures' && record.passed)
  ) {
    return []
  }
  const root = environment[REPORT_ROOT_ENV] ?? process.cwd()
  const directory = entryDirectory(root, record)
  // GitLab resolves attachment paths against the project folder; Jenkins takes absolute paths.
  const gitlabRoot = environment['GITLAB_CI'] === 'true' ? (environment['CI_PROJECT_DIR'] ?? root) : null
  const folder = gitlabRoot === null ? outputDir : relativePosix(gitlabRoot, outputDir)
  return Object.values(entryFiles(record, directory))
    .filter((file) => file !== null)
    .map((file) => `[[ATTACHMENT|${folder}/${file}]]`)
}
