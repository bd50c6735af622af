import path from 'node:path'
import pc from 'picocolors'
import { captureProcess } from '../../capture/capture-process.js'
import { ReaError } from '../../errors.js'
import { escapeControlCharacters } from '../../internal/escape-controls.js'
import { relativePosix } from '../../internal/relative-posix.js'
import { isCi } from '../../authority/update-mode.js'
import { findMarkdownFiles } from '../../markdown/find-files.js'
import { blockDetails, blockTitle } from '../../markdown/format-block.js'
import { formatMarkdownIssue } from '../../markdown/markdown-issue.js'
import { blockRecords, pagesOf, writeMarkdownReports } from '../../markdown/markdown-report.js'
import { readMarkdownFile, runMarkdownFiles, type FileRun } from '../../markdown/run-files.js'
import { withTestDefaults } from '../../scenario/test-defaults.js'
import { parseCommandLine, usageHint, type Command } from '../arguments.js'
import { TEST } from '../tables/test.js'
import { EXIT } from '../exit-codes.js'

/** `rea test`: Markdown console blocks run as tests, for any project (docs/markdown-cases.md). */
export const command: Command = {
  async run(argv, context) {
    const { values, positionals } = parseCommandLine(TEST, argv)
    const root = process.cwd()
    const jobs = values.jobs === undefined ? undefined : Number(values.jobs)
    if (jobs !== undefined && (!Number.isSafeInteger(jobs) || jobs < 1)) {
      throw new ReaError(
        'INVALID_ARGUMENTS',
        `--jobs must be a whole number of 1 or more: got "${values.jobs}".`,
        { hint: usageHint(TEST) },
      )
    }
    const found = findMarkdownFiles(positionals, root)
    if (found.files.length === 0) {
      throw new ReaError('INVALID_ARGUMENTS', `No Markdown file to run: ${found.problems.join('; ')}.`, {
        hint: usageHint(TEST),
      })
    }
    const outputDir = values.report === false ? null : path.resolve(root, values.report)
    const junit = values.junit === undefined ? null : path.resolve(root, values.junit)
    const ci = isCi()
    const update = values.update && !ci
    const shown = (file: string): string => relativePosix(root, file)
    const print = (text: string): void => void process.stdout.write(`${text}\n`)
    if (values.update && ci) {
      print(pc.yellow('rea test: CI is set, so --update writes nothing (a CI run never rewrites the docs).'))
    }
    const plans = found.files.map(readMarkdownFile)
    const started = performance.now()
    const updateCommand = `rea test -u ${positionals.join(' ')}`
    const runs = await runMarkdownFiles(plans, {
      update,
      ...(jobs === undefined ? {} : { jobs }),
      capture: (scenario) =>
        captureProcess(withTestDefaults(scenario), { root, signal: context.signals.signal }),
      onFile: (run) =>
        print(fileReport(run, shown(run.plan.file), { root, outputDir, junit, updateCommand })),
    })
    const warnings = writeMarkdownReports(runs, { root, outputDir, junit, updateCommand })
    for (const warning of [...found.problems, ...warnings]) {
      process.stderr.write(`rea: ${escapeControlCharacters(warning)}\n`)
    }
    print(summaryLine(runs, performance.now() - started, outputDir === null ? null : shown(outputDir)))
    return exitCode(runs, found.problems.length > 0)
  },
}

interface ReportPlaces {
  readonly root: string
  readonly outputDir: string | null
  readonly junit: string | null
  readonly updateCommand: string
}

const MARKS = {
  passed: pc.green('✓'),
  failed: pc.red('✗'),
  unknown: pc.yellow('?'),
  invalid: pc.red('!'),
  ignored: pc.dim('-'),
} as const

/** A file's lines: a header, then each block that did not pass with what went wrong, and what `-u` did. */
function fileReport(run: FileRun, shownFile: string, places: ReportPlaces): string {
  const lines: string[] = []
  const ran = run.results.filter((result) => result.outcome !== 'ignored')
  const bad = run.results.filter((result) => result.outcome !== 'passed' && result.outcome !== 'ignored')
  const updated = (index: number): boolean =>
    run.update?.updatedBlocks.has(index) === true && run.updateProblem === null
  const label = bad.every((result) => updated(result.index)) ? pc.green(' PASS ') : pc.red(' FAIL ')
  if (run.plan.blocks.length === 0) {
    lines.push(`${pc.dim(' NONE ')} ${escapeControlCharacters(shownFile)}: no console blocks`)
  } else {
    const ignored = run.results.length - ran.length
    lines.push(
      `${label} ${escapeControlCharacters(shownFile)} (${ran.length} block${ran.length === 1 ? '' : 's'}${ignored === 0 ? '' : `, ${ignored} ignored`})`,
    )
  }
  for (const issue of run.issues.filter(
    (issue) => !run.results.some((result) => result.issues.includes(issue)),
  )) {
    lines.push(`  ${MARKS.invalid} ${escapeControlCharacters(formatMarkdownIssue(issue, shownFile))}`)
  }
  for (const result of bad) {
    const rewritten = updated(result.index)
    lines.push(
      `  ${rewritten ? pc.cyan('↻') : MARKS[result.outcome]} ${blockTitle(result, shownFile)}${rewritten ? pc.cyan(' (updated)') : ''}`,
    )
    if (!rewritten) {
      const details = blockDetails(result, {
        shownFile,
        page: pagesOf(blockRecords(run, result), places),
        ...(result.outcome === 'failed' ? { updateCommand: `rea test -u ${shownFile}` } : {}),
      })
      lines.push(...details.map((line) => `      ${line}`))
    }
  }
  for (const note of run.update?.notes ?? []) {
    lines.push(`  ${pc.yellow('↻')} ${escapeControlCharacters(`${shownFile}: ${note}`)}`)
  }
  if (run.updateProblem !== null) {
    lines.push(`  ${MARKS.failed} ${escapeControlCharacters(`${shownFile}: ${run.updateProblem}`)}`)
  }
  return lines.join('\n')
}

function summaryLine(runs: readonly FileRun[], elapsedMs: number, reportFolder: string | null): string {
  const results = runs.flatMap((run) => run.results)
  const count = (outcome: string): number => results.filter((result) => result.outcome === outcome).length
  const updated = runs.reduce(
    (total, run) => total + (run.updateProblem === null ? (run.update?.updatedBlocks.size ?? 0) : 0),
    0,
  )
  const failed = count('failed') - updated
  const parts = [
    `${count('passed')} passed`,
    `${failed} failed`,
    `${count('unknown')} unknown`,
    `${count('invalid')} invalid`,
    `${count('ignored')} ignored`,
    ...(updated > 0 ? [`${updated} updated`] : []),
  ]
  const bad = failed + count('unknown') + count('invalid') > 0
  const line = `${pc.bold(' REA ')} ${(bad ? pc.red : pc.green)(`${results.length} block${results.length === 1 ? '' : 's'} in ${runs.length} file${runs.length === 1 ? '' : 's'}: ${parts.join(', ')}`)} ${pc.dim(`(${(elapsedMs / 1000).toFixed(1)} s)`)}`
  return reportFolder === null
    ? line
    : `${line}\n  ${pc.dim(`report: ${escapeControlCharacters(reportFolder)}/summary.md`)}`
}

/** 3 for bad input before 1 for a failure before 2 for an unknown: what a person must fix first. */
function exitCode(runs: readonly FileRun[], badArguments: boolean): number {
  const results = runs.flatMap((run) => run.results)
  const updated = (run: FileRun, index: number): boolean =>
    run.updateProblem === null && run.update?.updatedBlocks.has(index) === true
  if (
    badArguments ||
    runs.some((run) => run.issues.length > 0) ||
    results.some((result) => result.outcome === 'invalid')
  ) {
    return EXIT.invalidInput
  }
  if (
    runs.some(
      (run) =>
        run.updateProblem !== null ||
        run.results.some((result) => result.outcome === 'failed' && !updated(run, result.index)),
    )
  ) {
    return EXIT.different
  }
  return results.some((result) => result.outcome === 'unknown') ? EXIT.unknown : EXIT.ok
}
