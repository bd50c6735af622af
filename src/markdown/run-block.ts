import { isReaError, formatReaError } from '../errors.js'
import type { Evidence } from '../evidence/schema.js'
import type { ProcessScenarioInput } from '../scenario/schema.js'
import { DEFAULT_COMMAND_TIMEOUT_MS } from './case-options.js'
import { checkCommand, type CommandCheck } from './check-command.js'
import { commandScenario } from './command-scenario.js'
import type { MarkdownIssue } from './markdown-issue.js'
import type { BlockPlan, DocumentPlan } from './plan-document.js'
import type { MarkdownWorkspace } from './workspace.js'

/**
 * One console block run: its fixtures written, its commands run one after the other through the front door's
 * capture (the CLI's, or a test runner's fixture, which adds the test environment and ends captures before the
 * test's timeout), each checked against the block. Commands are independent: one that fails does not stop the next.
 */

/** How a front door runs a scenario: `captureProcess` under its root, with the test defaults. */
export type CaptureScenario = (scenario: ProcessScenarioInput) => Promise<Evidence>

export type BlockOutcome = 'passed' | 'failed' | 'unknown' | 'invalid' | 'ignored'

export interface BlockResult {
  readonly block: BlockPlan
  readonly index: number
  readonly outcome: BlockOutcome
  readonly checks: readonly CommandCheck[]
  /** Why the block did not run (or stopped): its own issues and the file's. */
  readonly issues: readonly MarkdownIssue[]
  /** How long its commands took, for reports. */
  readonly durationMs: number
}

export async function runBlock(
  plan: DocumentPlan,
  index: number,
  workspace: MarkdownWorkspace,
  capture: CaptureScenario,
): Promise<BlockResult> {
  const block = plan.blocks[index] as BlockPlan
  const started = performance.now()
  const result = (
    outcome: BlockOutcome,
    checks: readonly CommandCheck[],
    issues: readonly MarkdownIssue[],
  ): BlockResult => ({
    block,
    index,
    outcome,
    checks,
    issues,
    durationMs: performance.now() - started,
  })
  if (block.state === 'ignored') {
    return result('ignored', [], [])
  }
  if (block.state === 'invalid') {
    return result('invalid', [], [...plan.fileIssues, ...block.issues])
  }
  const issues = workspace.prepareBlock(index)
  if (issues.length > 0) {
    return result('invalid', [], issues)
  }
  const directory = workspace.workingDirectory(block.options.cwd)
  const checks: CommandCheck[] = []
  for (const command of block.commands) {
    let evidence: Evidence
    try {
      evidence = await capture(commandScenario(command, block.options, directory))
    } catch (error) {
      // A scenario the block's options made invalid (a cell budget, a redaction): that block's input is wrong.
      if (isReaError(error) && error.code === 'INVALID_SCENARIO') {
        return result('invalid', checks, [
          {
            file: plan.file,
            line: command.parsed.line.number,
            rule: 'invalid_scenario',
            message: formatReaError(error).replaceAll('\n', ' '),
          },
        ])
      }
      throw error
    }
    checks.push(
      checkCommand(command, evidence, {
        timeoutMs: block.options.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
        styled: block.options.color === true,
      }),
    )
  }
  const outcomes = checks.map((check) => check.outcome)
  return result(
    outcomes.includes('failed') ? 'failed' : outcomes.includes('unknown') ? 'unknown' : 'passed',
    checks,
    [],
  )
}
