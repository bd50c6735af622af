import { MIN_REDACTED_CHARACTERS } from '../normalize/sensitive-values.js'
import type { ScenarioEventInput } from './scenario-types.js'
import { isInput, type InputSegment, type Segment } from './expected-line.js'
import { hasLead, promptWaitRegex, screenWaitRegex, textWaitRegex, type PromptWait } from './input-waits.js'
import type { BlockProblem, ExpectedLine, ParsedCommand } from './parse-block.js'

/**
 * The input events of one command: each run of adjacent input tokens is one event, sent when the screen shows
 * what the expected text puts before it. Sensitive values are read from the environment here, once, and live
 * only in the events (REA records them as a byte count and masks them in output).
 */

export interface CommandInputs {
  readonly events: readonly ScenarioEventInput[]
  /** The line each event is written on, for messages. */
  readonly eventLines: readonly number[]
  /** `terminal=screens`: the expected screens, one before each event and the final one last. */
  readonly screens: readonly (readonly ExpectedLine[])[] | null
  /** How the inputs wait (`wait=`), for hints. */
  readonly wait: 'prompt' | 'text'
}

export interface InputSettings {
  readonly terminal: 'transcript' | 'screens'
  readonly wait: 'prompt' | 'text'
  readonly quietMs: number | undefined
  readonly columns: number
  readonly rows: number
  readonly environment: Readonly<Record<string, string | undefined>>
}

export function commandInputs(
  command: ParsedCommand,
  settings: InputSettings,
  problems: BlockProblem[],
): CommandInputs {
  return settings.terminal === 'screens'
    ? screensInputs(command, settings, problems)
    : transcriptInputs(command, settings, problems)
}

interface Group {
  readonly segments: readonly InputSegment[]
  readonly line: number
  readonly wait: PromptWait
}

function transcriptInputs(
  command: ParsedCommand,
  settings: InputSettings,
  problems: BlockProblem[],
): CommandInputs {
  const groups: Group[] = []
  let contextStart = 0
  command.expected.forEach((line, lineIndex) => {
    if (line.kind === 'lines') {
      return
    }
    let run: InputSegment[] = []
    const close = (end: number): void => {
      if (run.length > 0) {
        const context = command.expected.slice(contextStart, lineIndex)
        groups.push({
          segments: run,
          line: line.line.number,
          wait: { context, prefix: line.segments.slice(0, end - run.length) },
        })
        contextStart = lineIndex
        run = []
      }
    }
    line.segments.forEach((segment, index) => {
      if (isInput(segment)) {
        run.push(segment)
      } else {
        close(index)
      }
    })
    close(line.segments.length)
  })
  const events: ScenarioEventInput[] = []
  for (const group of groups) {
    if (!hasLead(group.wait)) {
      problems.push({
        line: group.line,
        rule: 'input_without_prompt',
        message:
          'this input has nothing before it to wait for: write what the program shows before it is typed (e.g. `Name? {{Ada}}{Enter}`), on its line or the line above',
      })
      continue
    }
    const regex =
      settings.wait === 'text'
        ? textWaitRegex(group.wait)
        : promptWaitRegex(group.wait, settings.columns, settings.rows)
    const event = inputEvent(group.segments, group.line, regex, settings, problems)
    if (event !== null) {
      events.push(event)
    }
  }
  return { events, eventLines: groups.map((group) => group.line), screens: null, wait: settings.wait }
}

function isInputLine(segments: readonly Segment[]): boolean {
  return (
    segments.some(isInput) &&
    segments.every((segment) => isInput(segment) || (segment.kind === 'text' && segment.text.trim() === ''))
  )
}

function screensInputs(
  command: ParsedCommand,
  settings: InputSettings,
  problems: BlockProblem[],
): CommandInputs {
  const screens: ExpectedLine[][] = [[]]
  const events: ScenarioEventInput[] = []
  const eventLines: number[] = []
  for (const line of command.expected) {
    if (line.kind === 'line' && isInputLine(line.segments)) {
      const screen = screens.at(-1) as ExpectedLine[]
      if (screen.length === 0) {
        problems.push({
          line: line.line.number,
          rule: 'input_without_prompt',
          message:
            'with terminal=screens, an input line follows the screen it waits for: write the screen the program shows before it',
        })
      }
      const event = inputEvent(
        line.segments.filter(isInput),
        line.line.number,
        screenWaitRegex(screen),
        settings,
        problems,
      )
      if (event !== null) {
        events.push(event)
        eventLines.push(line.line.number)
      }
      screens.push([])
      continue
    }
    if (line.kind === 'line' && line.segments.some(isInput)) {
      problems.push({
        line: line.line.number,
        rule: 'input_in_screen',
        message:
          'with terminal=screens, input goes on a line of its own between two screens (e.g. `{Down}{Enter}`), not inside a screen',
      })
    }
    ;(screens.at(-1) as ExpectedLine[]).push(line)
  }
  return { events, eventLines, screens, wait: settings.wait }
}

/** Keys whose bytes do not depend on the terminal's modes, so typed text with them can go as `data`. */
const DATA_KEYS: Readonly<Record<string, string>> = { Enter: '\r' }

function inputEvent(
  segments: readonly InputSegment[],
  line: number,
  screenRegex: string,
  settings: InputSettings,
  problems: BlockProblem[],
): ScenarioEventInput | null {
  const values: string[] = []
  for (const segment of segments) {
    if (segment.kind !== 'secret') {
      continue
    }
    const value = settings.environment[segment.variable]
    if (value === undefined || value === '') {
      problems.push({
        line,
        rule: 'sensitive_unset',
        message: `{{$${segment.variable}}} types the value of the environment variable ${segment.variable}, which is not set: set it where the tests run (a CI secret)`,
      })
      return null
    }
    if (Array.from(value).length < MIN_REDACTED_CHARACTERS) {
      problems.push({
        line,
        rule: 'sensitive_too_short',
        message: `${segment.variable} holds fewer than ${MIN_REDACTED_CHARACTERS} characters: REA masks only longer values in what it records, so a shorter one could show in a failure`,
      })
      return null
    }
    values.push(value)
  }
  const sensitive = values.length > 0
  const after = {
    screen_regex: screenRegex,
    ...(settings.quietMs === undefined ? {} : { quiet_ms: settings.quietMs }),
  }
  const asData = segments.every((segment) => segment.kind !== 'key' || DATA_KEYS[segment.name] !== undefined)
  let secret = 0
  const typed = (segment: InputSegment): string =>
    segment.kind === 'typed' ? segment.text : segment.kind === 'secret' ? (values[secret++] as string) : ''
  if (asData) {
    const data = segments
      .map((segment) => (segment.kind === 'key' ? (DATA_KEYS[segment.name] as string) : typed(segment)))
      .join('')
    return { type: 'input', data, after, ...(sensitive ? { sensitive: true } : {}) }
  }
  const keys = segments.flatMap((segment) =>
    segment.kind === 'key' ? [segment.name] : Array.from(typed(segment)),
  )
  return { type: 'input', keys, after, ...(sensitive ? { sensitive: true } : {}) }
}
