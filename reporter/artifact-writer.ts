import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { canonicalJsonDocument } from '../src/evidence/canonical-json.js'
import type { AssertionRecord } from '../src/report/assertion-record.js'
import {
  buildReportModel,
  failureHeadline,
  relativePosix,
  REPORT_FORMAT,
  REPORT_FORMAT_VERSION,
  type ReportModel,
} from '../src/report/report-model.js'
import { REA_VERSION } from '../src/version.js'
import { divergenceMarkdown, summaryMarkdown } from './markdown.js'

/**
 * The one artifact writer behind both reporters: it turns the run's assertion records into the report
 * folder — per assertion the reconstruction Evidence, a copy of an object authority, the comparison
 * document and divergence.md; for the run index.json and summary.md.
 */

/** Present in every folder REA wrote, so a later run knows it may replace the folder's contents. */
export const REPORT_MARKER = '.rea-report'
/** Jest matchers write their records here while the run lasts (Jest has no test-to-reporter channel). */
export const PENDING_DIRECTORY = '.pending'

export interface WriteReportOptions {
  readonly outputDir: string
  readonly root: string
  readonly runner: 'vitest' | 'jest'
}

export interface WrittenReport {
  readonly model: ReportModel
  readonly outputDir: string
}

/**
 * Makes `outputDir` an empty report folder. Refuses a folder REA did not create (no marker) that holds files:
 * a misconfigured `outputDir: '.'` must never delete a project.
 */
export function resetReportFolder(outputDir: string, keep: readonly string[] = []): void {
  if (existsSync(outputDir)) {
    if (!statSync(outputDir).isDirectory()) {
      throw new Error(`${outputDir} exists and is not a folder`)
    }
    const names = readdirSync(outputDir)
    if (names.length > 0 && !names.includes(REPORT_MARKER)) {
      throw new Error(
        `${outputDir} holds files REA did not write (no ${REPORT_MARKER} marker), so it is not replaced; ` +
          'set the reporter’s outputDir to a folder of its own, or delete this one',
      )
    }
    for (const name of names) {
      if (!keep.includes(name)) {
        rmSync(path.join(outputDir, name), { recursive: true, force: true })
      }
    }
  }
  mkdirSync(outputDir, { recursive: true })
  writeFileSync(
    path.join(outputDir, REPORT_MARKER),
    'Written by REA process capture’s reporter; replaced on every run.\n',
  )
}

/** Replaces the previous run's report with this run's. Throws on I/O errors; reporters turn them into warnings. */
export function writeReport(records: readonly AssertionRecord[], options: WriteReportOptions): WrittenReport {
  const model = buildReportModel(records, options.root)
  resetReportFolder(options.outputDir)
  const write = (relative: string, text: string): void => {
    const file = path.join(options.outputDir, ...relative.split('/'))
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, text)
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
  }
  write('index.json', canonicalJsonDocument(reportIndex(model, options)))
  write('summary.md', summaryMarkdown(model, { root: options.root, reportLabel: '.', links: true }))
  return { model, outputDir: options.outputDir }
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
        test_file: relativePosix(options.root, record.test_file),
        test_name: record.test_name,
        entry: record.entry,
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
      }
    }),
  }
}
