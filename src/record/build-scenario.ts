import path from 'node:path'
import { ReaError } from '../errors.js'
import { scanRules, type StreamRule } from '../normalize/stream-rule.js'
import {
  DEFAULT_TIMEOUT_MS,
  FILTER_NAMES,
  PLACEHOLDER_NAMES,
  type ProcessScenarioInput,
} from '../scenario/schema.js'
import { findExecutable } from '../scenario/resolve.js'
import { validateScenario } from '../scenario/validate.js'
import { buildEvents, type RecordedEvent } from './build-events.js'
import type { SecretRules } from './prompt-rules.js'
import type { RecordedTimeline } from './timeline.js'

type PlaceholderName = (typeof PLACEHOLDER_NAMES)[number]
type FilterName = (typeof FILTER_NAMES)[number]

/** The normalization a recording proposes: the rules whose spans appeared in the program's output. */
export interface ProposedNormalization {
  readonly placeholders: PlaceholderName[]
  readonly filters: FilterName[]
}

export interface RecordedScenario {
  /** The scenario as written to the file: secrets replaced by placeholders. */
  readonly scenario: ProcessScenarioInput
  readonly events: readonly RecordedEvent[]
  readonly proposed: ProposedNormalization
  readonly notes: readonly string[]
}

export interface CommandLine {
  readonly executable: string
  readonly arguments: readonly string[]
  /** The capture root: paths in the command line are written relative to it. */
  readonly root: string
  /** Environment entries the recording ran with over the inherited one (the test environment). */
  readonly environment?: Readonly<Record<string, string | null>>
  /** Placeholders already in force (the test plugin's defaults), kept in a proposal that names others. */
  readonly basePlaceholders?: readonly PlaceholderName[]
}

/**
 * The scenario of a recording: the command with its paths relative to the capture root, the terminal's size
 * when it started, the events, and the normalization the output needs. Validated like any scenario before it
 * is returned; a recorder that produced an invalid one has a bug.
 */
export function buildRecordedScenario(
  timeline: RecordedTimeline,
  command: CommandLine,
  rules: readonly StreamRule[],
  secretRules?: SecretRules,
): RecordedScenario {
  const { events, avoided, notes } = buildEvents(timeline, rules, secretRules)
  const found = labelsIn(timeline.output, rules)
  for (const label of avoided) {
    found.add(label)
  }
  const placeholders = PLACEHOLDER_NAMES.filter((name) => found.has(name))
  const proposed: ProposedNormalization = {
    placeholders:
      placeholders.length === 0
        ? []
        : PLACEHOLDER_NAMES.filter(
            (name) => found.has(name) || command.basePlaceholders?.includes(name) === true,
          ),
    filters: FILTER_NAMES.filter((name) => found.has(name)),
  }
  const timeoutMs = Math.max(DEFAULT_TIMEOUT_MS, Math.ceil((timeline.duration_ms * 2) / 1000) * 1000)
  const scenario: ProcessScenarioInput = {
    executable: relativeToRoot(command.executable, command.root, true),
    arguments: command.arguments.map((argument) => relativeToRoot(argument, command.root, false)),
    ...(command.environment === undefined ? {} : { environment: { ...command.environment } }),
    terminal: { columns: timeline.columns, rows: timeline.rows },
    events: events.map((recorded) => recorded.event),
    ...(timeoutMs > DEFAULT_TIMEOUT_MS ? { timeout_ms: timeoutMs } : {}),
    ...(proposed.placeholders.length + proposed.filters.length === 0
      ? {}
      : {
          normalization: {
            ...(proposed.placeholders.length === 0 ? {} : { placeholders: proposed.placeholders }),
            ...(proposed.filters.length === 0 ? {} : { filters: proposed.filters }),
          },
        }),
  }
  try {
    validateScenario(scenario)
  } catch (error) {
    throw new ReaError('INTERNAL', 'The recorder produced a scenario that does not validate.', {
      cause: error,
    })
  }
  return { scenario, events, proposed, notes }
}

function labelsIn(text: string, rules: readonly StreamRule[]): Set<string> {
  const labels = new Set<string>()
  scanRules(rules, text, 0, text.length, (_start, _end, match) => {
    if (match !== undefined) {
      labels.add(match.label)
    }
  })
  return labels
}

/**
 * An absolute path inside the capture root, written relative to it (`./` first for the executable, so that it
 * is still a path and not a name looked up on PATH); anything else as given.
 */
function relativeToRoot(value: string, root: string, executable: boolean): string {
  if (!path.isAbsolute(value)) {
    return value
  }
  const relative = path.relative(root, value)
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
    // A program found on PATH under its own name is written as that name: the path is this machine's.
    return executable && findExecutable(path.basename(value), root, process.env['PATH']) === value
      ? path.basename(value)
      : value
  }
  const posix = relative.split(path.sep).join('/')
  return executable ? `./${posix}` : posix
}
