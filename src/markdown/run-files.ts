import { availableParallelism } from 'node:os'
import { readInputBytesSync } from '../internal/read-input-file.js'
import type { MarkdownIssue } from './markdown-issue.js'
import { planDocument, type DocumentPlan } from './plan-document.js'
import { runBlock, type BlockResult, type CaptureScenario } from './run-block.js'
import { planDocumentUpdate, writeDocumentUpdate, type DocumentUpdate } from './update-document.js'
import { MarkdownWorkspace } from './workspace.js'

/**
 * `rea test`'s run: each file in its own temporary folder, its blocks in order; several files side by side. A
 * test runner runs the same steps block by block, as tests (src/runner/markdown-suite.ts).
 */

/** Markdown files are read as REA reads a scenario: a regular file, 16 MiB at most. */
export const MARKDOWN_FILE_KIND = {
  label: 'The Markdown file',
  code: 'INVALID_ARGUMENTS',
  maxBytes: 16 * 1024 * 1024,
} as const

export interface FileRun {
  readonly plan: DocumentPlan
  readonly results: readonly BlockResult[]
  /** Problems of the file itself (its front matter, its `files=`). */
  readonly issues: readonly MarkdownIssue[]
  /** With `update`: what was rewritten, and the sentences about what was not. */
  readonly update: DocumentUpdate | null
  /** Why the update could not be written, when it could not. */
  readonly updateProblem: string | null
}

export interface RunFilesOptions {
  readonly capture: CaptureScenario
  readonly update: boolean
  /** Files run side by side; the machine's parallelism by default. */
  readonly jobs?: number
  /** Told of each file as it ends, in the order files end. */
  readonly onFile?: (run: FileRun) => void
}

export function readMarkdownFile(file: string): DocumentPlan {
  return planDocument(file, readInputBytesSync(file, MARKDOWN_FILE_KIND).toString('utf8'))
}

export async function runMarkdownFile(plan: DocumentPlan, options: RunFilesOptions): Promise<FileRun> {
  const { workspace, issues } = MarkdownWorkspace.create(plan)
  const results: BlockResult[] = []
  try {
    for (let index = 0; index < plan.blocks.length; index++) {
      if (issues.length > 0) {
        const block = plan.blocks[index]
        if (block !== undefined && block.state !== 'ignored') {
          results.push({ block, index, outcome: 'invalid', checks: [], issues, durationMs: 0 })
        }
        continue
      }
      results.push(await runBlock(plan, index, workspace, options.capture))
    }
  } finally {
    workspace.dispose()
  }
  const update = options.update ? planDocumentUpdate(plan, results) : null
  const updateProblem = update === null ? null : writeDocumentUpdate(plan, update)
  return { plan, results, issues: [...plan.fileIssues, ...issues], update, updateProblem }
}

export async function runMarkdownFiles(
  plans: readonly DocumentPlan[],
  options: RunFilesOptions,
): Promise<FileRun[]> {
  const runs = new Array<FileRun>(plans.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < plans.length) {
      const index = next++
      const run = await runMarkdownFile(plans[index] as DocumentPlan, options)
      runs[index] = run
      options.onFile?.(run)
    }
  }
  const jobs = Math.max(1, Math.min(plans.length, options.jobs ?? availableParallelism()))
  await Promise.all(Array.from({ length: jobs }, worker))
  return runs
}
