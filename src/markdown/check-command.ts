import { constants } from 'node:os'
import { compareCaptures } from '../compare/compare-captures.js'
import { runFlaws } from '../evidence/run-flaws.js'
import type { Evidence } from '../evidence/schema.js'
import { finalFrame, frameBeforeEvent, frameText } from './actual-text.js'
import { alignLines, linePattern, type Alignment } from './match-lines.js'
import type { ExpectedLine, ExpectedStatus } from './parse-block.js'
import type { CommandPlan } from './plan-document.js'

/**
 * One command's capture held against what its block says: the exit status, and the expected text against the
 * final transcript (or, with `terminal=screens`, each expected screen against the checkpoint screen before the
 * input that follows it, and the final screen). What REA did not fully observe makes the result unknown, never
 * passed: the capture is compared with itself by the comparison's own rules, which name every such gap.
 */

export type CheckOutcome = 'passed' | 'failed' | 'unknown'

export interface SectionCheck {
  /** What was compared, in words: `the final screen and its scrollback`, `the screen before line 17`. */
  readonly label: string
  readonly expected: readonly ExpectedLine[]
  /** Null when REA has no such screen (its frame was not rendered, or the input was never sent). */
  readonly actual: readonly string[] | null
  readonly alignment: Alignment | null
}

export interface CommandCheck {
  readonly outcome: CheckOutcome
  readonly plan: CommandPlan
  readonly evidence: Evidence
  readonly expectedStatus: ExpectedStatus
  /** Null when the command's end was not observed as an exit or a signal (a deadline, a cancellation). */
  readonly actualStatus: ExpectedStatus | null
  readonly sections: readonly SectionCheck[]
  /** Why the run did not go as the block says (an input never sent, a timeout); each fails the command. */
  readonly flaws: readonly string[]
  /** What REA could not observe fully; each makes an otherwise passing command unknown. */
  readonly unknowns: readonly string[]
  /** The program drew on the alternate screen (a full-screen program). */
  readonly usedAlternateScreen: boolean
}

const SIGNAL_NAMES = new Map(Object.entries(constants.signals).map(([name, number]) => [number, name]))

export function actualStatusOf(evidence: Evidence): ExpectedStatus | null {
  const exit = evidence.exit
  if (exit.reason !== 'exited') {
    return null
  }
  if (exit.signal !== null && exit.signal !== 0) {
    return { kind: 'signal', signal: SIGNAL_NAMES.get(exit.signal) ?? `signal ${exit.signal}` }
  }
  return exit.code === null ? null : { kind: 'code', code: exit.code }
}

export function sameStatus(a: ExpectedStatus, b: ExpectedStatus | null): boolean {
  return (
    b !== null &&
    (a.kind === 'code'
      ? b.kind === 'code' && b.code === a.code
      : b.kind === 'signal' && b.signal === a.signal)
  )
}

// eslint-disable-next-line no-control-regex -- the sequence that switches to the alternate screen
const ALTERNATE_SCREEN = /\u001b\[\?(?:1049|1047|47)h/

export interface CheckSettings {
  readonly timeoutMs: number
  /** `color`: lines carry style marks. */
  readonly styled: boolean
}

export function checkCommand(plan: CommandPlan, evidence: Evidence, settings: CheckSettings): CommandCheck {
  const { timeoutMs, styled } = settings
  const expectedStatus = plan.parsed.statusLine?.status ?? { kind: 'code', code: 0 }
  const actualStatus = actualStatusOf(evidence)
  const sections =
    plan.inputs.screens === null
      ? [transcriptSection(plan, evidence, styled)]
      : screenSections(plan, evidence, styled)
  const flaws: string[] = []
  let cancelled = false
  let skipped = false
  for (const flaw of runFlaws(evidence)) {
    if (flaw.kind === 'skipped_wait') {
      // The inputs after the first one never sent were skipped because of it: one sentence says it all.
      if (skipped) {
        continue
      }
      skipped = true
      const line = plan.inputs.eventLines[flaw.event.event_index] ?? plan.parsed.line.number
      flaws.push(
        `the input on line ${line} was never sent: the screen never showed what the block writes before it (waited ${(flaw.event.ended_at_ms - flaw.event.since_ms).toLocaleString('en-US')} ms)`,
      )
    } else if (flaw.kind === 'deadline') {
      flaws.push(`the command was still running after timeout=${timeoutMs} ms, and REA ended it`)
    } else {
      cancelled = true
    }
  }
  const self = compareCaptures(evidence, evidence)
  const unknown = (dimension: 'terminal' | 'exit'): string[] =>
    self.dimensions[dimension].unknowns.map((entry) => `${dimension} ${entry.reason}: ${entry.detail}`)
  const terminalUnknown = unknown('terminal')
  const exitUnknown = unknown('exit')
  const textDiffers = sections.some((section) => section.alignment?.equal !== true)
  const statusDiffers = !sameStatus(expectedStatus, actualStatus) && flaws.length === 0
  const proven =
    flaws.length > 0 ||
    (textDiffers && terminalUnknown.length === 0 && sections.every((section) => section.actual !== null)) ||
    (statusDiffers && exitUnknown.length === 0 && actualStatus !== null)
  const unknowns = [
    ...terminalUnknown,
    ...exitUnknown,
    ...(cancelled ? ['the capture was cancelled, so REA ended the command'] : []),
  ]
  const outcome: CheckOutcome = cancelled
    ? 'unknown'
    : proven
      ? 'failed'
      : unknowns.length > 0 || textDiffers || statusDiffers
        ? 'unknown'
        : 'passed'
  const usedAlternateScreen = evidence.terminal.chunks.some((chunk) => ALTERNATE_SCREEN.test(chunk.data))
  return {
    outcome,
    plan,
    evidence,
    expectedStatus,
    actualStatus,
    sections,
    flaws,
    unknowns,
    usedAlternateScreen,
  }
}

function section(
  label: string,
  expected: readonly ExpectedLine[],
  actual: readonly string[] | null,
): SectionCheck {
  return {
    label,
    expected,
    actual,
    alignment: actual === null ? null : alignLines(expected.map(linePattern), actual),
  }
}

function transcriptSection(plan: CommandPlan, evidence: Evidence, styled: boolean): SectionCheck {
  const frame = finalFrame(evidence)
  return section(
    'the final screen and its scrollback',
    plan.parsed.expected,
    frame === null ? null : frameText(evidence, frame, styled).transcript,
  )
}

function screenSections(plan: CommandPlan, evidence: Evidence, styled: boolean): SectionCheck[] {
  const screens = plan.inputs.screens ?? []
  return screens.map((expected, index) => {
    const last = index === screens.length - 1
    const frame = last ? finalFrame(evidence) : frameBeforeEvent(evidence, index)
    const label = last
      ? 'the final screen'
      : `the screen before the input on line ${plan.inputs.eventLines[index] ?? '?'}`
    return section(label, expected, frame === null ? null : frameText(evidence, frame, styled).screen)
  })
}
