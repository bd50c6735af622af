import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { canonicalJsonDocument } from '../evidence/canonical-json.js'
import { errorMessage } from '../internal/error-message.js'
import { quoteText, showName } from '../internal/escape-controls.js'
import { relativePosix } from '../internal/relative-posix.js'
import { writeFileAtomicSync } from '../internal/write-file-atomic.js'
import { REA_VERSION } from '../version.js'
import { renderAssertionFinalScreens, renderAssertionPage } from './assertion-page.js'
import { failureHeadline, REPORT_FORMAT, REPORT_FORMAT_VERSION, type ReportModel } from './report-model.js'
import { divergenceMarkdown, summaryMarkdown } from './report-markdown.js'

/**
 * The one artifact writer behind both reporters: it turns the run's assertion records into the report
 * folder — per assertion the reconstruction Evidence, a copy of an object authority, the comparison
 * document and divergence.md; for the run index.json and summary.md.
 */

/** Present in every folder REA wrote, so a later run knows it may replace the folder's contents. */
export const REPORT_MARKER = '.rea-report'
/** Jest matchers write their records here while the run lasts (Jest has no test-to-reporter channel). */
export const RECORDS_DIRECTORY = '.records'

export interface WriteReportOptions {
  readonly outputDir: string
  readonly root: string
  /** `rea` for `rea test`, which writes the same folder. */
  readonly runner: 'vitest' | 'jest' | 'rea'
  /** The command that rewrites what differs, named in summary.md; `<runner> -u` when absent. */
  readonly updateCommand?: string
}

/** Names REA writes at the top of the report folder besides the entries' folders. */
const FIXED_NAMES = [REPORT_MARKER, RECORDS_DIRECTORY, 'index.json', 'summary.md']

/**
 * Removes the previous run's report from `outputDir`, and only that: the fixed files and the entry folders
 * listed in the previous index.json (then their parents, if that left them empty). A folder holding files but
 * no marker was not written by REA and is refused, so a misconfigured `outputDir: '.'` never deletes a
 * project; anything else found in a report folder is left where it is, with a warning.
 */
export function resetReportFolder(outputDir: string, warn: (message: string) => void = () => {}): void {
  if (existsSync(outputDir)) {
    if (!statSync(outputDir).isDirectory()) {
      throw new Error(`${showName(outputDir)} exists and is not a folder`)
    }
    const names = readdirSync(outputDir)
    if (names.length > 0 && !names.includes(REPORT_MARKER)) {
      throw new Error(
        `${showName(outputDir)} holds files REA did not write (no ${REPORT_MARKER} marker), so it is not replaced; ` +
          'set the reporter’s outputDir to a folder of its own, or delete this one.',
      )
    }
    for (const directory of previousEntryDirectories(outputDir)) {
      removeEntryDirectory(outputDir, directory)
    }
    for (const name of FIXED_NAMES) {
      rmSync(path.join(outputDir, name), { recursive: true, force: true })
    }
    const left = readdirSync(outputDir)
    if (left.length > 0) {
      warn(
        `left ${left.map(quoteText).join(', ')} in ${showName(outputDir)}: REA did not write ${left.length === 1 ? 'it' : 'them'}.`,
      )
    }
  }
  mkdirSync(outputDir, { recursive: true })
  writeFileAtomicSync(
    path.join(outputDir, REPORT_MARKER),
    'Written by REA process capture’s reporter; replaced on every run.\n',
  )
}

/** The entry folders the previous index.json lists; none when it is missing or unreadable. */
function previousEntryDirectories(outputDir: string): string[] {
  try {
    const index = JSON.parse(readFileSync(path.join(outputDir, 'index.json'), 'utf8')) as {
      entries?: { directory?: unknown }[]
    }
    return (index.entries ?? [])
      .map((entry) => entry.directory)
      .filter((directory): directory is string => typeof directory === 'string')
  } catch {
    return []
  }
}

function removeEntryDirectory(outputDir: string, directory: string): void {
  const parts = directory.split('/')
  // Only folders strictly inside the report folder, named as REA names them.
  if (parts.some((part) => part === '' || part === '.' || part === '..')) {
    return
  }
  rmSync(path.join(outputDir, ...parts), { recursive: true, force: true })
  for (let depth = parts.length - 1; depth > 0; depth--) {
    const parent = path.join(outputDir, ...parts.slice(0, depth))
    try {
      if (readdirSync(parent).length > 0) {
        return
      }
      rmdirSync(parent)
    } catch {
      return
    }
  }
}

/** Replaces the previous run's report with this run's. Throws on I/O errors; reporters turn them into warnings. */
export function writeReport(
  model: ReportModel,
  options: WriteReportOptions,
  warn: (message: string) => void = () => {},
): void {
  resetReportFolder(options.outputDir, warn)
  const write = (relative: string, text: string): void => {
    const file = path.join(options.outputDir, ...relative.split('/'))
    mkdirSync(path.dirname(file), { recursive: true })
    // Whole or not at all: a run killed while writing leaves no half file for CI to upload.
    writeFileAtomicSync(file, text)
  }
  for (const entry of model.entries) {
    const record = entry.record
    if (entry.files.reconstruction !== null && record.reconstruction !== null) {
      write(entry.files.reconstruction, record.reconstruction)
    }
    if (entry.files.authority_copy !== null && record.authority_evidence !== null) {
      write(entry.files.authority_copy, record.authority_evidence)
    }
    if (entry.files.comparison !== null) {
      write(entry.files.comparison, canonicalJsonDocument(record.comparison))
    }
    if (entry.files.trace !== null) {
      write(entry.files.trace, canonicalJsonDocument(record.trace))
    }
    write(entry.files.divergence, divergenceMarkdown(entry, options.root))
    if (entry.files.divergence_page !== null) {
      try {
        write(entry.files.divergence_page, renderAssertionPage(record))
      } catch (error) {
        // One page that cannot be built must not cost the rest of the report.
        warn(`could not write ${entry.files.divergence_page}: ${errorMessage(error)}`)
      }
    }
    if (entry.files.final_screens !== null) {
      try {
        write(entry.files.final_screens, renderAssertionFinalScreens(record))
      } catch (error) {
        warn(`could not write ${entry.files.final_screens}: ${errorMessage(error)}`)
      }
    }
  }
  write('index.json', canonicalJsonDocument(reportIndex(model, options)))
  write(
    'summary.md',
    summaryMarkdown(model, {
      root: options.root,
      reportLabel: '.',
      links: true,
      updateCommand: options.updateCommand ?? `${options.runner} -u`,
    }),
  )
}

function reportIndex(model: ReportModel, options: WriteReportOptions) {
  return {
    format: REPORT_FORMAT,
    format_version: REPORT_FORMAT_VERSION,
    rea_version: REA_VERSION,
    runner: options.runner,
    root: options.root.split(path.sep).join('/'),
    totals: model.totals,
    entries: model.entries.map((entry) => {
      const record = entry.record
      return {
        project: record.project,
        test_file: relativePosix(options.root, record.test_file),
        test_name: record.test_name,
        entry: record.entry,
        attempt: record.attempt,
        matcher: record.matcher,
        negated: record.negated,
        location:
          record.location === null
            ? null
            : { ...record.location, file: relativePosix(options.root, record.location.file) },
        outcome: record.outcome,
        passed: record.passed,
        verdict: record.comparison?.verdict ?? record.trace?.verdict ?? null,
        first_divergence: record.comparison?.first_divergence ?? null,
        headline: record.passed ? null : failureHeadline(record),
        authority_path:
          record.authority_path === null ? null : relativePosix(options.root, record.authority_path),
        directory: entry.directory,
        files: entry.files,
        timing: record.comparison?.timing ?? null,
      }
    }),
    obsolete_authorities: model.obsolete.map((file) => ({
      path: relativePosix(options.root, file.file),
      test_file: relativePosix(options.root, file.testFile),
      reason: file.reason,
      removed: file.removed,
    })),
  }
}
