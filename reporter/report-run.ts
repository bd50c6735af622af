import path from 'node:path'
import pc from 'picocolors'
import * as z from 'zod'
import {
  type AssertionRecord,
  buildReportModel,
  checkObsoleteAuthorities,
  describeObsolete,
  errorMessage,
  escapeControlCharacters,
  failureHeadline,
  failuresByPriority,
  type ObsoleteCheckResult,
  obsoleteLine,
  relativePosix,
  type ReportModel,
  showName,
  type TestFileRun,
  totalsLine,
  type UpdateMode,
  writeReport,
} from '../src/front-end.js'
import { annotationCommands, appendStepSummary } from './github.js'

/** What both reporters do at the end of a run, and the options they share. */

export const reporterOptionsSchema = z.strictObject({
  outputDir: z
    .string()
    .min(1)
    .optional()
    .describe('Report folder, relative to the runner root. Default rea-report.'),
  console: z.boolean().optional().describe('Print the end-of-run summary. Default true.'),
  github: z
    .union([
      z.boolean(),
      z.strictObject({
        annotations: z.int().min(0).max(50).optional(),
        stepSummary: z.boolean().optional(),
      }),
    ])
    .optional()
    .describe('GitHub Actions output. Default: on when GITHUB_ACTIONS is "true".'),
  junitAttachments: z
    .enum(['failures', 'all', 'off'])
    .optional()
    .describe(
      'Print [[ATTACHMENT|path]] lines into the test output for JUnit reporters. Default failures when a JUnit reporter is configured, else off.',
    ),
})
export type ReaReporterOptions = z.input<typeof reporterOptionsSchema>

export interface ResolvedReporterOptions {
  readonly outputDir: string
  readonly console: boolean
  readonly annotations: number
  readonly stepSummary: boolean
  readonly junitAttachments: 'failures' | 'all' | 'off'
}

/**
 * Whether the runner's `reporters` configuration names a JUnit reporter (Vitest's `junit`, `jest-junit`, any
 * reporter whose module or class name says JUnit): only then do `[[ATTACHMENT|…]]` lines have a reader, and
 * only then are they printed by default.
 */
export function configuresJUnitReporter(reporters: unknown): boolean {
  if (!Array.isArray(reporters)) {
    return false
  }
  return reporters.some((entry: unknown) => {
    const reporter: unknown = Array.isArray(entry) ? entry[0] : entry
    if (typeof reporter === 'string') {
      return /junit/i.test(reporter)
    }
    const name = (reporter as { constructor?: { name?: unknown } } | null)?.constructor?.name
    return typeof name === 'string' && /junit/i.test(name)
  })
}

/**
 * Bad options become a warning and the defaults: a reporter must never stop the run. `junitConfigured` says
 * whether the runner has a JUnit reporter, which decides the default of `junitAttachments`.
 */
export function resolveReporterOptions(
  raw: unknown,
  root: string,
  warn: (message: string) => void,
  junitConfigured = false,
): ResolvedReporterOptions {
  // Each option falls back on its own: one typo must not send the report to another folder.
  const isObject = typeof raw === 'object' && raw !== null && !Array.isArray(raw)
  if (!isObject && raw !== undefined && raw !== null) {
    warn(`ignoring reporter options that are not an object (got ${typeof raw}); using the defaults.`)
  }
  const input: Record<string, unknown> = isObject ? (raw as Record<string, unknown>) : {}
  const options: Record<string, unknown> = {}
  const problems: string[] = []
  for (const [name, value] of Object.entries(input)) {
    const shape: Record<string, z.ZodType> = reporterOptionsSchema.shape
    const field = Object.hasOwn(shape, name) ? shape[name] : undefined
    if (field === undefined) {
      problems.push(`${name}: unknown option`)
      continue
    }
    const parsed = field.safeParse(value)
    if (parsed.success) {
      options[name] = parsed.data
    } else {
      problems.push(
        ...parsed.error.issues.map((issue) => `${[name, ...issue.path].join('.')}: ${issue.message}`),
      )
    }
  }
  if (problems.length > 0) {
    warn(`ignoring invalid reporter options (${problems.join('; ')}); those use their defaults.`)
  }
  const valid = options as z.output<typeof reporterOptionsSchema>
  const onGitHub = process.env['GITHUB_ACTIONS'] === 'true'
  const github = valid.github ?? onGitHub
  return {
    outputDir: path.resolve(root, valid.outputDir ?? 'rea-report'),
    console: valid.console ?? true,
    annotations: github === false ? 0 : github === true ? 10 : (github.annotations ?? 10),
    stepSummary: github === false ? false : github === true ? true : (github.stepSummary ?? true),
    // Asked for, or a JUnit reporter is there to read them; otherwise the lines are only noise in test output.
    junitAttachments: valid.junitAttachments ?? (junitConfigured ? 'failures' : 'off'),
  }
}

export interface RunReportIo {
  readonly root: string
  readonly runner: 'vitest' | 'jest'
  readonly log: (text: string) => void
  readonly warn: (message: string) => void
  /** Prints why the run fails (obsolete authorities in a CI run). */
  readonly error: (text: string) => void
}

/** What the runner told the reporter about the run, for the obsolete-authority check. */
export interface RunFacts {
  readonly runs: readonly TestFileRun[]
  readonly wholeProject: boolean
  readonly updateMode: UpdateMode
  /** Authority files whose failure the runner already counted and showed: not said again. */
  readonly counted?: ReadonlySet<string>
}

/**
 * Finds, removes (`-u`) or fails on (CI) obsolete authority files. A problem of the check itself is a warning and
 * no result: it must never fail a run or remove a file it is unsure of.
 */
export function checkObsolete(facts: RunFacts, io: RunReportIo): ObsoleteCheckResult | null {
  try {
    const result = checkObsoleteAuthorities({ ...facts, updateCommand: `${io.runner} -u`, root: io.root })
    for (const problem of result.problems) {
      io.warn(problem)
    }
    return result
  } catch (error) {
    io.warn(`could not check for obsolete authority files: ${errorMessage(error)}`)
    return null
  }
}

/**
 * Writes the folder, then the console summary and GitHub output; every step failing only as a warning, and
 * none depending on another: annotations need no folder. A CI run with obsolete authority files prints why it
 * fails whatever the options say; the caller fails the run.
 */
export function finishRunReport(
  records: readonly AssertionRecord[],
  options: ResolvedReporterOptions,
  io: RunReportIo,
  testPassed?: (record: AssertionRecord) => boolean,
  obsolete: ObsoleteCheckResult | null = null,
): void {
  const model = buildReportModel(records, io.root, testPassed, obsolete?.files ?? [])
  try {
    writeReport(model, { outputDir: options.outputDir, root: io.root, runner: io.runner }, io.warn)
  } catch (error) {
    io.warn(`could not write the report to ${options.outputDir}: ${errorMessage(error)}`)
  }
  const reportLabel = relativePosix(io.root, options.outputDir)
  if (options.console && (model.entries.length > 0 || model.obsolete.length > 0)) {
    io.log(consoleSummary(model, reportLabel, io.root, `${io.runner} -u`))
  }
  if (obsolete?.failure != null) {
    io.error(`${pc.bold(' REA ')} ${pc.red(obsolete.failure)}`)
  }
  const workspace = process.env['GITHUB_WORKSPACE'] || io.root
  try {
    for (const command of annotationCommands(model, { limit: options.annotations, workspace, reportLabel })) {
      process.stdout.write(`${command}\n`)
    }
    const summaryFile = process.env['GITHUB_STEP_SUMMARY']
    const anything = model.entries.length > 0 || model.obsolete.length > 0
    if (options.stepSummary && summaryFile !== undefined && summaryFile !== '' && anything) {
      appendStepSummary(model, summaryFile, io.root, reportLabel)
    }
  } catch (error) {
    io.warn(`could not write GitHub Actions output: ${errorMessage(error)}`)
  }
}

/** The end-of-run lines: totals, each failure's first divergence on one line, the folder. */
export function consoleSummary(
  model: ReportModel,
  reportLabel: string,
  root: string,
  updateCommand = '-u',
): string {
  const t = model.totals
  const color = t.failed > 0 ? pc.red : pc.green
  // Paths, test names and headlines are the user's and the program's text; the colours are the only controls.
  const e = escapeControlCharacters
  const lines = model.entries.length > 0 ? [`${pc.bold(' REA ')} ${color(totalsLine(model))}`] : []
  for (const entry of failuresByPriority(model)) {
    const record = entry.record
    const where = relativePosix(root, record.location?.file ?? record.test_file)
    const line = record.location === null ? '' : `:${record.location.line}`
    lines.push(
      `  ${pc.red('✗')} ${showName(where)}${line} ${pc.bold(showName(record.test_name))}: ${e(failureHeadline(record))}`,
    )
  }
  if (model.obsolete.length > 0) {
    lines.push(`${pc.bold(' REA ')} ${pc.yellow(obsoleteLine(model.obsolete, updateCommand))}`)
    for (const file of model.obsolete) {
      lines.push(`  ${pc.dim('↳')} ${describeObsolete(file, root)}`)
    }
  }
  lines.push(`  ${pc.dim(`report: ${e(reportLabel)}/summary.md`)}`)
  return lines.join('\n')
}

/** Warnings are sentences followed by another: end each with a period. */
export function withPeriod(message: string): string {
  return /[.!?]$/.test(message) ? message : `${message}.`
}

/**
 * Runs a reporter hook so that nothing it throws reaches the runner: the error becomes a warning, and the run's
 * result stays the tests'.
 */
export function guarded(hook: string, body: () => void, warn: (message: string) => void): void {
  try {
    body()
  } catch (error) {
    warn(`${hook} failed: ${errorMessage(error)}`)
  }
}

/** A reporter warning: `<name>: <message>.` and the reassurance that the run is unaffected. */
export function reporterWarning(name: string, message: string): string {
  return `${name}: ${escapeControlCharacters(withPeriod(message))} The test run's result is unaffected.`
}
