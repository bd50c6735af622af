import { isCi, type UpdateMode } from '../authority/update-mode.js'
import { relativePosix } from '../internal/relative-posix.js'
import { blockDetails, blockTitle } from '../markdown/format-block.js'
import { formatMarkdownIssue } from '../markdown/markdown-issue.js'
import { markdownRecords } from '../markdown/markdown-record.js'
import { planDocument, type BlockPlan, type DocumentPlan } from '../markdown/plan-document.js'
import { runBlock, type CaptureScenario } from '../markdown/run-block.js'
import { planDocumentUpdate, writeDocumentUpdate, type DocumentUpdate } from '../markdown/update-document.js'
import { MarkdownWorkspace } from '../markdown/workspace.js'
import type { RunnerAdapter, RunnerMatcherState } from './runner-adapter.js'

/**
 * A Markdown file as a test runner's suite: one test per console block, named by its nearest heading and line (the
 * runner shows the file), run in document order in the file's temporary folder. Both runners' modules
 * (the Vite plugin's, the Jest transform's) call this with their own test functions; the blocks run through the
 * runner's capture fixture, so captures end before the test's timeout and never outlive it.
 */

/** What a block's test is given by the runner: its capture, and the matcher state that names the test. */
export interface BlockTestContext {
  readonly capture: CaptureScenario
  readonly state: () => RunnerMatcherState
  readonly attempt: { readonly retry: number; readonly repeat: number }
}

export interface MarkdownSuiteHost {
  readonly updateCommand: string
  readonly root: () => string
  readonly updateMode: () => UpdateMode
  readonly adapter: Pick<RunnerAdapter, 'project' | 'recording' | 'record' | 'failed'>
  readonly test: (name: string, timeoutMs: number, body: (context: BlockTestContext) => Promise<void>) => void
  readonly skip: (name: string) => void
  readonly beforeAll: (body: () => void) => void
  readonly afterAll: (body: () => void) => void
}

/** Margin over a block's command timeouts for its test: the capture's own deadline speaks first. */
const TEST_MARGIN_MS = 5_000

/** A block that failed: its message is the block's report, its stack points at the block in the Markdown file. */
export class MarkdownCaseError extends Error {
  constructor(message: string, file: string, line: number) {
    super(message)
    this.name = 'MarkdownCaseError'
    this.stack = `${message}\n    at ${file}:${line}:1`
  }
}

export function defineMarkdownSuite(host: MarkdownSuiteHost, file: string, source: string): void {
  const plan = planDocument(file, source)
  const shown = relativePosix(host.root(), file)
  if (plan.blocks.length === 0) {
    host.skip(`${shown}: no console blocks`)
    return
  }
  let workspace: MarkdownWorkspace | undefined
  let workspaceIssues: readonly string[] = []
  const updates: DocumentUpdate[] = []
  host.beforeAll(() => {
    const created = MarkdownWorkspace.create(plan)
    workspace = created.workspace
    workspaceIssues = created.issues.map((issue) => formatMarkdownIssue(issue, shown))
  })
  host.afterAll(() => {
    workspace?.dispose()
    const splices = updates.flatMap((update) => update.splices)
    const problem = writeDocumentUpdate(plan, { updatedBlocks: new Set(), notes: [], splices })
    if (problem !== null) {
      throw new Error(`${shown}: ${problem}`)
    }
  })
  plan.blocks.forEach((block, index) => {
    if (block.state === 'ignored') {
      host.skip(block.name)
      return
    }
    host.test(block.name, block.timeoutMs + TEST_MARGIN_MS, async (context) => {
      if (workspaceIssues.length > 0) {
        throw new MarkdownCaseError(workspaceIssues.join('\n'), file, 1)
      }
      await runBlockTest(
        host,
        { plan, block, index, shown, updates },
        workspace as MarkdownWorkspace,
        context,
      )
    })
  })
}

interface BlockTest {
  readonly plan: DocumentPlan
  readonly block: BlockPlan
  readonly index: number
  readonly shown: string
  /** This file's rewrites so far, written together when the file ends. */
  readonly updates: DocumentUpdate[]
}

async function runBlockTest(
  host: MarkdownSuiteHost,
  { plan, block, index, shown, updates }: BlockTest,
  workspace: MarkdownWorkspace,
  context: BlockTestContext,
): Promise<void> {
  const result = await runBlock(plan, index, workspace, context.capture)
  let update: DocumentUpdate | null = null
  if (result.outcome === 'failed' && host.updateMode() === 'all' && !isCi()) {
    update = planDocumentUpdate(plan, [result])
    updates.push(update)
  }
  const updated = update?.updatedBlocks.has(index) === true
  const recording = host.adapter.recording()
  // A record holds each command's serialized Evidence: made only for the reporter or a failure's annotation, so a
  // passing block without a reporter costs no more than its captures (bench/markdown.mjs).
  if (recording || result.outcome !== 'passed') {
    const state = context.state()
    const records = markdownRecords(result, {
      file: plan.file,
      project: host.adapter.project(),
      testName: state.currentTestName ?? block.name,
      attempt: context.attempt,
      updated,
    })
    records.forEach((record, command) => {
      if (recording) {
        host.adapter.record(state, record)
      }
      if (!record.passed) {
        host.adapter.failed?.(state, record, { received: result.checks[command]?.evidence ?? null })
      }
    })
  }
  if (result.outcome === 'passed' || updated) {
    return
  }
  const lines = [
    blockTitle(result, shown),
    ...blockDetails(result, {
      shownFile: shown,
      ...(result.outcome === 'failed' ? { updateCommand: host.updateCommand } : {}),
    }).map((line) => `  ${line}`),
    ...(update?.notes ?? []).map((note) => `  ${note}`),
  ]
  throw new MarkdownCaseError(lines.join('\n'), plan.file, result.issues[0]?.line ?? block.line)
}
