import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { relativePosix } from '../internal/relative-posix.js'
import { writeFileAtomicSync } from '../internal/write-file-atomic.js'
import { writeReport } from '../report/artifact-writer.js'
import type { AssertionRecord } from '../report/assertion-record.js'
import { junitXml, type JUnitCase } from '../report/junit-xml.js'
import { buildReportModel, entryDirectory, entryFiles, failureHeadline } from '../report/report-model.js'
import { blockDetails } from './format-block.js'
import { markdownRecords } from './markdown-record.js'
import type { BlockResult } from './run-block.js'
import type { FileRun } from './run-files.js'

/**
 * `rea test`'s reports: the reporter's folder (index.json, summary.md, per command its capture, divergence.md and,
 * for failures, divergence.html), and a JUnit XML file whose cases point at those pages.
 */

export interface MarkdownReportOptions {
  readonly root: string
  /** The report folder, absolute; null for none. */
  readonly outputDir: string | null
  /** The JUnit file, absolute; null for none. */
  readonly junit: string | null
  readonly updateCommand: string
}

export function blockRecords(run: FileRun, result: BlockResult): AssertionRecord[] {
  if (result.outcome === 'ignored') {
    return []
  }
  return markdownRecords(result, {
    file: run.plan.file,
    project: '',
    testName: result.block.name,
    attempt: { retry: 0, repeat: 0 },
    updated: run.update?.updatedBlocks.has(result.index) === true && run.updateProblem === null,
  })
}

/** The divergence page of each command of a block (0-based), as a path relative to the root; null without one. */
export function pagesOf(
  records: readonly AssertionRecord[],
  options: MarkdownReportOptions,
): (command: number) => string | null {
  return (command) => {
    const record = records[command]
    if (record === undefined || options.outputDir === null) {
      return null
    }
    const page = entryFiles(record, entryDirectory(options.root, record)).divergence_page
    return page === null ? null : relativePosix(options.root, path.join(options.outputDir, page))
  }
}

/** Writes the folder and the JUnit file; returns the warnings (a report that cannot be written fails nothing). */
export function writeMarkdownReports(runs: readonly FileRun[], options: MarkdownReportOptions): string[] {
  const warnings: string[] = []
  const records = runs.flatMap((run) => run.results.flatMap((result) => blockRecords(run, result)))
  if (options.outputDir !== null) {
    try {
      writeReport(
        buildReportModel(records, options.root),
        {
          outputDir: options.outputDir,
          root: options.root,
          runner: 'rea',
          updateCommand: options.updateCommand,
        },
        (message) => warnings.push(message),
      )
    } catch (error) {
      warnings.push(`could not write the report to ${options.outputDir}: ${String(error)}`)
    }
  }
  if (options.junit !== null) {
    try {
      mkdirSync(path.dirname(options.junit), { recursive: true })
      writeFileAtomicSync(
        options.junit,
        junitXml(
          runs.map((run) => junitSuite(run, options)),
          'rea test',
        ),
      )
    } catch (error) {
      warnings.push(`could not write the JUnit file ${options.junit}: ${String(error)}`)
    }
  }
  return warnings
}

function junitSuite(run: FileRun, options: MarkdownReportOptions): { name: string; cases: JUnitCase[] } {
  const file = relativePosix(options.root, run.plan.file)
  return {
    name: file,
    cases: run.results.map((result) => {
      const records = blockRecords(run, result)
      const pages = pagesOf(records, options)
      const failed = records.find((record) => !record.passed)
      return {
        name: result.block.name,
        file,
        line: result.block.line,
        seconds: result.durationMs / 1000,
        outcome:
          result.outcome === 'ignored'
            ? 'skipped'
            : result.outcome === 'invalid'
              ? 'error'
              : failed === undefined
                ? 'passed'
                : 'failed',
        message: failed === undefined ? null : failureHeadline(failed),
        details: failed === undefined ? null : blockDetails(result, { shownFile: file }).join('\n'),
        attachments: records.flatMap((_, index) => pages(index) ?? []),
      }
    }),
  }
}
