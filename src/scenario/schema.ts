import * as z from 'zod'
import { described } from '../internal/zod-description.js'
import { WIDTH_MODEL, WIDTH_MODELS } from './terminal-model.js'
import {
  EVENT_DISPATCH,
  EVENT_DISPATCH_MODELS,
  WAIT_SETTLE_LIMIT_MS,
  WAIT_SETTLE_MS,
} from './event-dispatch.js'

/** Signals a scenario event may send; a fixed list so a committed scenario means the same on every host. */
export const SCENARIO_SIGNALS = [
  'SIGHUP',
  'SIGINT',
  'SIGQUIT',
  'SIGABRT',
  'SIGKILL',
  'SIGUSR1',
  'SIGUSR2',
  'SIGPIPE',
  'SIGALRM',
  'SIGTERM',
  'SIGCONT',
  'SIGSTOP',
  'SIGTSTP',
  'SIGTTIN',
  'SIGTTOU',
  'SIGWINCH',
] as const
export type ScenarioSignal = (typeof SCENARIO_SIGNALS)[number]

/** `columns × (rows + scrollback)` may not exceed this many cells, at the start size and at every resize. */
export const TERMINAL_CELL_BUDGET = 1_000_000
/** TIOCSWINSZ stores sizes as unsigned 16-bit values. */
export const MAX_TERMINAL_DIMENSION = 65_535
/** xterm.js refuses narrower terminals. */
export const MIN_TERMINAL_COLUMNS = 2

export const DEFAULT_TERMINAL = {
  columns: 80,
  rows: 24,
  scrollback: 1000,
  answer_queries: true,
  width_model: WIDTH_MODEL,
} as const
export const DEFAULT_TIMEOUT_MS = 30_000
export const DEFAULT_SETTLE_MS = 100
export const DEFAULT_LIMITS = {
  output_bytes: 1024 * 1024,
  rendered_bytes: 4 * 1024 * 1024,
  file_bytes: 64 * 1024 * 1024,
  file_count: 10_000,
  filesystem_depth: 32,
  process_samples: 1000,
} as const

// Shared bases: each field wraps them (`.optional()`, `.default()`) and describes the wrapper, never the base.
const nonNegativeMs = z.int().min(0)
const positiveMs = z.int().min(1)
const nonNegativeInt = z.int().min(0)
const nonEmptyText = z.string().min(1)
const noNul = (what: string) =>
  z.string().refine((value) => !value.includes('\0'), {
    error: `${what} may not contain a NUL character`,
    params: { rule: 'no_nul' },
  })

const columnsSchema = described(
  z.int().min(MIN_TERMINAL_COLUMNS).max(MAX_TERMINAL_DIMENSION),
  'Terminal width in cells.',
)
const rowsSchema = described(z.int().min(1).max(MAX_TERMINAL_DIMENSION), 'Visible terminal height in rows.')

export const terminalSettingsSchema = described(
  z.strictObject({
    columns: columnsSchema.default(DEFAULT_TERMINAL.columns),
    rows: rowsSchema.default(DEFAULT_TERMINAL.rows),
    scrollback: described(
      nonNegativeInt.default(DEFAULT_TERMINAL.scrollback),
      'Rows kept above the visible screen; the same value applies after every resize.',
    ),
    answer_queries: described(
      z.boolean().default(DEFAULT_TERMINAL.answer_queries),
      'Answer terminal queries from REA’s reply table (cursor position, device attributes, mode reports, colours, XTVERSION, XTGETTCAP) by writing the reply to the PTY, as a real terminal does.',
    ),
    width_model: described(
      z.enum(WIDTH_MODELS).default(DEFAULT_TERMINAL.width_model),
      'How wide characters are drawn: grapheme-clusters-v1 (default) as current terminals draw them, emoji two cells wide; unicode-6 as REA drew them before, to compare with authorities recorded then.',
    ),
  }),
  'Initial PTY and renderer size. columns × (rows + scrollback) must be ≤ 1,000,000.',
)

const atMs = described(
  z.int().min(0),
  'Milliseconds from launch; the given at_ms values must be non-decreasing and ≤ timeout_ms. Optional on an event with after, where it is the earliest dispatch time.',
)

export const waitConditionSchema = described(
  z.strictObject({
    output: described(
      nonEmptyText.optional(),
      'Literal text that appears in the normalized output after the previous event (or launch).',
    ),
    output_regex: described(
      nonEmptyText.optional(),
      'JavaScript regex (flags u and m) matched against the normalized output since the previous event.',
    ),
    screen: described(
      nonEmptyText.optional(),
      'Literal text visible on the live screen as drawn (trailing spaces the program wrote count), once the program has drawn after the previous event.',
    ),
    screen_regex: described(
      nonEmptyText.optional(),
      'JavaScript regex (flags u and m) matched against the visible rows, joined by newlines.',
    ),
    gone: described(
      nonEmptyText.optional(),
      'Literal text no longer visible on the live screen, once the program has drawn after the previous event.',
    ),
    quiet_ms: described(
      nonNegativeMs.optional(),
      `After the match, wait until the output has been quiet this long (0: not at all). Absent: the default settle, ${WAIT_SETTLE_MS} ms of quiet, met at the latest ${WAIT_SETTLE_LIMIT_MS} ms after the match. Alone, without a condition: wait until the program has printed nothing this long since the previous event.`,
    ),
    within_ms: described(
      positiveMs.optional(),
      'Give up after this long (from the previous event): the event is skipped as wait_timed_out.',
    ),
  }),
  'Wait for what the program shows before dispatching: exactly one of output, output_regex, screen, screen_regex, gone; or quiet_ms alone.',
)

const afterField = waitConditionSchema.optional()

export const inputEventSchema = z.strictObject({
  type: z.literal('input'),
  at_ms: atMs.optional(),
  after: afterField,
  data: described(
    noNul('input data').min(1).optional(),
    'Text written to the PTY as typed; use "\\r" for Enter, "\\u0003" for Ctrl-C. Exactly one of data and keys.',
  ),
  keys: described(
    z.array(nonEmptyText).min(1).optional(),
    "Named keys sent in order (Enter, Up, F5, Ctrl+C, Alt+x, single characters, …), encoded for the terminal's current modes.",
  ),
  sensitive: described(
    z.boolean().default(false),
    'Sent as given but persisted only as its byte count, and masked in recorded terminal output.',
  ),
})

export const resizeEventSchema = z.strictObject({
  type: z.literal('resize'),
  at_ms: atMs.optional(),
  after: afterField,
  columns: columnsSchema,
  rows: rowsSchema,
})

export const signalEventSchema = z.strictObject({
  type: z.literal('signal'),
  at_ms: atMs.optional(),
  after: afterField,
  signal: described(
    z.enum(SCENARIO_SIGNALS),
    'Sent to the root process only, after re-checking its identity.',
  ),
})

export const scenarioEventSchema = z.discriminatedUnion('type', [
  inputEventSchema,
  resizeEventSchema,
  signalEventSchema,
])

/** A field of `limits`: a count of zero or more, defaulting to the value of DEFAULT_LIMITS under its name. */
const limit = (name: keyof typeof DEFAULT_LIMITS, description: string) =>
  described(nonNegativeInt.default(DEFAULT_LIMITS[name]), description)

export const limitsSchema = described(
  z.strictObject({
    output_bytes: limit(
      'output_bytes',
      'Budget for retained PTY chunks: their original bytes, plus the base64 copy of a chunk that is not valid UTF-8; a chunk that does not fit is omitted whole.',
    ),
    rendered_bytes: limit(
      'rendered_bytes',
      'Budget for rendered frames: UTF-8 bytes of serialized_state plus visible lines, cumulative.',
    ),
    file_bytes: limit(
      'file_bytes',
      'Cumulative whole-file hashing budget per filesystem checkpoint, across all observation roots.',
    ),
    file_count: limit('file_count', 'Entries enumerated per filesystem checkpoint, across all roots.'),
    filesystem_depth: limit(
      'filesystem_depth',
      'Directory levels below each observation root that are enumerated.',
    ),
    process_samples: limit('process_samples', 'Process-tree samples retained per capture.'),
  }),
  'Bounds on what a capture retains; whatever a limit drops is accounted in truncation_details.',
)

export const literalPatternSchema = z.strictObject({
  pattern: described(noNul('pattern'), 'Literal text to find; an empty pattern matches at every position.'),
  replacement: described(
    noNul('replacement'),
    'Literal replacement; dollar sequences such as $& are inserted as written.',
  ),
})

/** Values of the capture's own context that `normalization.placeholders` can name. */
export const PLACEHOLDER_NAMES = ['root', 'cwd', 'tmpdir', 'home', 'user', 'hostname'] as const
/** Built-in filters that `normalization.filters` can name. */
export const FILTER_NAMES = [
  'uuids',
  'timestamps',
  'durations',
  'hex_ids',
  'temp_names',
  'measured_durations',
] as const

const uniqueNames = <T extends z.ZodType<string>>(name: T, what: string) =>
  z.array(name).refine((names) => new Set(names).size === names.length, {
    error: `each ${what} may be listed once`,
    params: { rule: 'unique' },
  })

export const redactionSchema = z.strictObject({
  regex: described(
    noNul('regex').min(1),
    'JavaScript regex (flags u and m) applied to each line of the output; a named group "redacted" replaces only that part.',
  ),
  replacement: described(
    noNul('replacement'),
    'Inserted as written in place of the match (or its redacted group).',
  ),
})

export const normalizationSchema = described(
  z.strictObject({
    patterns: described(
      z.array(literalPatternSchema).default([]),
      'Literal replacements applied to each PTY chunk.',
    ),
    ports: described(
      z.boolean().default(true),
      'Replace port numbers of recognised endpoints; false keeps them.',
    ),
    placeholders: described(
      uniqueNames(z.enum(PLACEHOLDER_NAMES), 'placeholder').optional(),
      'Values of the capture’s context replaced by a token wherever the output spells them: root, cwd, tmpdir, home, user, hostname. Absent: none (the test plugin uses root, cwd, home, tmpdir, user and hostname).',
    ),
    filters: described(
      uniqueNames(z.enum(FILTER_NAMES), 'filter').optional(),
      'Built-in rules for values that change on every run: uuids, timestamps, durations, hex_ids, temp_names, measured_durations (durations with a decimal part only). Absent: none (the test plugin uses temp_names and measured_durations).',
    ),
    redactions: described(
      z.array(redactionSchema).optional(),
      'Your own regex rules, applied in order after placeholders and before filters. Absent: none.',
    ),
  }),
  'Rules that turn raw PTY text into comparison text.',
)

const environmentNameSchema = z
  .string()
  .refine((name) => name !== '' && !name.includes('=') && !name.includes('\0'), {
    error: 'an environment variable name may not be empty or contain "=" or NUL',
    params: { rule: 'environment_name' },
  })

export const processScenarioSchema = described(
  z.strictObject({
    executable: described(
      noNul('executable').min(1),
      'Program to run. A name without "/" is looked up on PATH; a path resolves against working_directory.',
    ),
    arguments: described(z.array(noNul('an argument')).default([]), 'Arguments passed to the executable.'),
    working_directory: described(
      noNul('working_directory').min(1).default('.'),
      'Where the process starts, relative to the capture root.',
    ),
    environment: described(
      z.record(environmentNameSchema, noNul('an environment value').nullable()).default({}),
      'Overrides applied over the inherited environment; null removes an inherited variable.',
    ),
    home: described(
      z.literal('isolated').optional(),
      'isolated: the command gets a fresh, empty HOME (and XDG folders) in a temporary folder REA removes after the capture, so the user’s ~/.gitconfig or ~/.npmrc cannot change it. Absent: HOME is inherited.',
    ),
    filesystem_observation_paths: described(
      z.array(noNul('an observation path').min(1)).default([]),
      'Files or directories, relative to working_directory, snapshotted before and after the run.',
    ),
    terminal: terminalSettingsSchema.prefault({}),
    events: described(
      z.array(scenarioEventSchema).default([]),
      'Input, resize and signal events, dispatched strictly in list order at their at_ms or after their condition.',
    ),
    event_dispatch: described(
      z.enum(EVENT_DISPATCH_MODELS).default(EVENT_DISPATCH),
      `How input goes in and waits are met: ${EVENT_DISPATCH} (default) writes input once the terminal has answered the program and the program has read the replies, keys one at a time, and meets a wait once the output has settled; immediate writes input at once, keys in one write, and meets a wait at its match, as REA did before, to compare with authorities recorded then.`,
    ),
    timeout_ms: described(positiveMs.default(DEFAULT_TIMEOUT_MS), 'Deadline for the whole run, from launch.'),
    idle_timeout_ms: described(
      positiveMs.nullable().default(null),
      'Deadline for a run without PTY output; null disables it. Input and resizes do not reset it.',
    ),
    settle_ms: described(
      nonNegativeMs.default(DEFAULT_SETTLE_MS),
      'How long to observe the process tree after exit.',
    ),
    finalization_ms: described(
      nonNegativeMs.default(0),
      'Grace after a deadline: SIGTERM first, SIGKILL when it ends. 0 sends SIGKILL at once.',
    ),
    limits: limitsSchema.prefault({}),
    normalization: normalizationSchema.prefault({}),
  }),
  'One command, how to drive it, and what to observe.',
)

/** A scenario as written by a user: every field but `executable` may be omitted. */
export type ProcessScenarioInput = z.input<typeof processScenarioSchema>
/** A scenario with every default applied. */
export type ProcessScenario = z.output<typeof processScenarioSchema>
export type ScenarioEvent = ProcessScenario['events'][number]
export type ScenarioLimits = ProcessScenario['limits']
export type TerminalSettings = ProcessScenario['terminal']
export type NormalizationSettings = ProcessScenario['normalization']
export type WaitCondition = z.output<typeof waitConditionSchema>
