import { appendFileSync, existsSync, statSync } from 'node:fs'
import path from 'node:path'
import {
  escapeControlCharacters,
  failureHeadline,
  failuresByPriority,
  type ReportModel,
  summaryMarkdown,
} from '../src/front-end.js'

/**
 * GitHub Actions output: `::error` workflow commands at each failed assertion's line, and the step summary.
 * GitHub shows about 10 error annotations per step and drops the rest silently, so the reporter picks the most
 * telling failures and says how many it left out.
 */

/** GitHub's cap on one step's summary file is 1 MiB; keep room for what other reporters append. */
export const STEP_SUMMARY_BUDGET = 512 * 1024
const STEP_SUMMARY_CAP = 1024 * 1024

/** Test names, paths and headlines are printed into the job log: their control characters are made visible. */
function escapeData(text: string): string {
  return escapeControlCharacters(text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A'))
}

function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C')
}

export interface AnnotationOptions {
  /** At most this many commands, the "N more" notice included. */
  readonly limit: number
  /** Paths in commands are relative to this folder ($GITHUB_WORKSPACE, else the runner's root). */
  readonly workspace: string
  /** Where the report is, as shown in messages. */
  readonly reportLabel: string
}

export function annotationCommands(model: ReportModel, options: AnnotationOptions): string[] {
  const failures = failuresByPriority(model)
  if (failures.length === 0 || options.limit <= 0) {
    return []
  }
  // The last slot says how many were left out, unless there is only one slot: then one real annotation.
  const shown =
    failures.length <= options.limit
      ? failures
      : failures.slice(0, options.limit === 1 ? 1 : options.limit - 1)
  const commands = shown.map((entry) => {
    const record = entry.record
    const file = path
      .relative(options.workspace, record.location?.file ?? record.test_file)
      .split(path.sep)
      .join('/')
    const properties = [
      `file=${escapeProperty(file)}`,
      ...(record.location === null ? [] : [`line=${record.location.line}`, `col=${record.location.column}`]),
      `title=${escapeProperty(`REA capture ${record.outcome}: ${record.test_name}`)}`,
    ]
    const message = `${failureHeadline(record)}\nDetails: ${options.reportLabel}/${entry.files.divergence}`
    return `::error ${properties.join(',')}::${escapeData(message)}`
  })
  const left = failures.length - shown.length
  if (left > 0 && commands.length < options.limit) {
    commands.push(
      `::error title=${escapeProperty('REA capture failures left out')}::${escapeData(
        `${left} more failed capture assertion${left === 1 ? '' : 's'} not annotated (GitHub shows about 10 per step); see the step summary or ${options.reportLabel}/summary.md.`,
      )}`,
    )
  }
  return commands
}

/** Appends the summary to $GITHUB_STEP_SUMMARY, trimmed so the file stays under GitHub's cap. */
export function appendStepSummary(model: ReportModel, file: string, root: string, reportLabel: string): void {
  const used = existsSync(file) ? statSync(file).size : 0
  const budget = Math.min(STEP_SUMMARY_BUDGET, STEP_SUMMARY_CAP - used - 1024)
  if (budget < 2048) {
    return
  }
  appendFileSync(file, `${summaryMarkdown(model, { root, reportLabel, links: false, maxBytes: budget })}\n`)
}
