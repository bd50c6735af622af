import pc from 'picocolors'
import { escapeControlCharacters, quoteJson, showCommandLine, showName } from '../internal/escape-controls.js'
import type { JsonValue } from '../internal/json-value.js'
import { DIMENSIONS, type Comparison, type Difference, type Location } from './comparison-schema.js'
import { describeRowChange, type ScreenRowChange } from './screen-row-change.js'
import { describeTiming } from './timing.js'
import { formatTraceResult } from './trace/index.js'

export interface FormatComparisonOptions {
  /** Colour the text (picocolors also honours NO_COLOR and FORCE_COLOR). Default: whether colours are supported. */
  readonly color?: boolean
  /** Differences listed per dimension; the document keeps them all. Default 5. */
  readonly differencesPerDimension?: number
  /**
   * How the reader asks for the screens level, named when a stream comparison failed while every screen is
   * equal: `--terminal screens` on the command line, `terminal: "screens"` for an MCP tool. Default
   * `{ terminal: 'screens' }`, the option of `compareCaptures` and of the matchers.
   */
  readonly screensOption?: string
  /**
   * The first screen row that reads differently ({@link firstScreenRowChange}), quoted under the header: what
   * changed, in words a person recognizes. The offsets stay with each difference below.
   */
  readonly rowChange?: ScreenRowChange | null
}

const TERMINAL_LEVEL_WORDS = {
  stream: 'stream (the normalized output and the checkpoint frames as recorded)',
  screens: 'screens (what every checkpoint screen shows, cell by cell)',
} as const

/**
 * The comparison for people: the verdict, each dimension's outcome, the first divergence with its location,
 * the unknowns with their reasons, and the unified diff of the normalized terminal text.
 */
export function formatComparison(comparison: Comparison, options: FormatComparisonOptions = {}): string {
  const c = pc.createColors(options.color ?? pc.isColorSupported)
  const perDimension = options.differencesPerDimension ?? 5
  const verdictColor =
    comparison.verdict === 'equivalent' ? c.green : comparison.verdict === 'different' ? c.red : c.yellow
  const lines = [
    `${c.bold('REA comparison')} ${verdictColor(c.bold(comparison.verdict))}${comparison.verdict_basis === 'trace' ? ' (decided by the trace specification)' : ''}`,
    `  authority       ${describeSide(comparison.authority)}`,
    `  reconstruction  ${describeSide(comparison.reconstruction)}`,
    `  timing          ${describeTiming(comparison.timing)}`,
    `  terminal        ${TERMINAL_LEVEL_WORDS[comparison.terminal_level]}`,
    ...(options.rowChange === undefined || options.rowChange === null
      ? []
      : [`  screen          ${describeRowChange(options.rowChange)}`]),
    '',
  ]
  const outcomeColor = { equal: c.green, different: c.red, unknown: c.yellow, not_selected: c.dim }
  for (const name of DIMENSIONS) {
    const result = comparison.dimensions[name]
    lines.push(`  ${name.padEnd(12)}${outcomeColor[result.outcome](result.outcome)}`)
    for (const difference of result.differences.slice(0, perDimension)) {
      lines.push(`    ${c.red('≠')} ${describeDifference(difference)}`)
    }
    const more = result.differences.length - perDimension + result.differences_omitted
    if (more > 0) {
      lines.push(c.dim(`    … ${more} more ${more === 1 ? 'difference' : 'differences'} (see --json)`))
    }
    for (const unknown of result.unknowns) {
      lines.push(`    ${c.yellow('?')} ${escapeControlCharacters(`${unknown.reason}: ${unknown.detail}`)}`)
    }
    for (const note of result.notes) {
      lines.push(c.dim(`    · ${escapeControlCharacters(note)}`))
    }
  }
  if (comparison.first_divergence !== null) {
    lines.push('', `${c.bold('First divergence')} ${describeDifference(comparison.first_divergence)}`)
  }
  const hint = comparison.normalization_hint
  if (hint !== null && hint !== undefined) {
    lines.push(
      '',
      ...describeNormalizationHint(hint).map((line, index) => (index === 0 ? c.bold(line) : line)),
    )
  }
  if (comparison.redaction_hint !== undefined) {
    lines.push(
      '',
      ...describeRedactionHint(comparison.redaction_hint).map((line, index) =>
        index === 0 ? c.bold(line) : line,
      ),
    )
  }
  if (comparison.unused_rules !== undefined && comparison.unused_rules.length > 0) {
    lines.push(
      '',
      c.bold('Rules that replaced nothing in either capture:') +
        ` ${escapeControlCharacters(comparison.unused_rules.join(', '))}; check that each fits the output it was meant to cover (docs/normalization.md).`,
    )
  }
  if (comparison.screens_equal === true) {
    lines.push(
      '',
      ...describeScreensHint(options.screensOption ?? "{ terminal: 'screens' }").map((line, index) =>
        index === 0 ? c.bold(line) : line,
      ),
    )
  }
  if (comparison.trace !== null) {
    lines.push('', `${c.bold('Trace')} ${comparison.trace.verdict}`)
    for (const [label, result] of [
      ['authority', comparison.trace.authority],
      ['reconstruction', comparison.trace.reconstruction],
    ] as const) {
      lines.push(`  ${label}:`, ...formatTraceResult(result).map((line) => `    ${line}`))
    }
  }
  const screens = comparison.terminal_level === 'screens'
  // At the screens level the stream is context for a screen that differs, not a finding of its own.
  if (
    comparison.terminal_diff !== null &&
    (!screens || comparison.dimensions.terminal.outcome === 'different')
  ) {
    lines.push(
      '',
      c.bold(
        `Normalized terminal output (authority → reconstruction${screens ? '; not compared at the screens level' : ''})`,
      ),
    )
    for (const line of comparison.terminal_diff.unified.trimEnd().split('\n')) {
      lines.push(colorDiffLine(c, line))
    }
  }
  return `${lines.join('\n')}\n`
}

/**
 * The rules that would have made the terminal equal: the output differs only in values that change between
 * runs or machines, not in behaviour.
 */
export function describeNormalizationHint(hint: NonNullable<Comparison['normalization_hint']>): string[] {
  const rules = [
    ...(hint.filters.length === 0 ? [] : [`filters ${hint.filters.join(', ')}`]),
    ...(hint.placeholders.length === 0 ? [] : [`placeholders ${hint.placeholders.join(', ')}`]),
  ].join('; ')
  const which =
    hint.covered === undefined
      ? 'every terminal difference is'
      : `${hint.covered.lines} of ${hint.covered.of} differing lines are`
  return [
    `Normalization hint: ${which} text that ${rules} would replace (docs/normalization.md).`,
    `  Add to the scenario: ${escapeControlCharacters(hint.scenario)}`,
  ]
}

/** Redactions for id-like values: proposed, since only the user knows whether the value changes on every run. */
export function describeRedactionHint(hint: NonNullable<Comparison['redaction_hint']>): string[] {
  const which =
    hint.covered === undefined
      ? 'every terminal difference is'
      : `${hint.covered.lines} of ${hint.covered.of} differing lines are`
  return [
    `Redaction hint: ${which} an id-like value that no filter replaces (${escapeControlCharacters(hint.values.join(', '))}); if it changes on every run, redact it (docs/normalization.md#redactions).`,
    `  Add to the scenario: ${escapeControlCharacters(hint.scenario)}`,
  ]
}

/**
 * The stream differs but every checkpoint screen is the same: the program drew the same screens in another way
 * (another order, other escape sequences), which the screens level accepts.
 */
export function describeScreensHint(screensOption: string): string[] {
  return [
    'Screens hint: every checkpoint screen is equal; the terminal output differs only in how the screens were drawn (docs/comparison.md#comparing-screens).',
    `  To compare what the screens show, use ${screensOption}`,
  ]
}

function colorDiffLine(c: ReturnType<typeof pc.createColors>, line: string): string {
  if (line.startsWith('+++') || line.startsWith('---')) {
    return c.bold(line)
  }
  if (line.startsWith('@@')) {
    return c.cyan(line)
  }
  if (line.startsWith('+')) {
    return c.green(line)
  }
  if (line.startsWith('-')) {
    return c.red(line)
  }
  return line.startsWith('…') ? c.dim(line) : line
}

// Sources, commands, paths and values come from the captures and their files; the colours are the only
// control sequences this text may carry.
function describeSide(side: Comparison['authority']): string {
  // One rule for every command line and path printed (showCommandLine, showName): an argument holding a newline
  // reads as \n, never as a line of its own.
  const command = showCommandLine([side.executable, ...side.arguments])
  return `${side.source === null ? '(in memory)' : showName(side.source)}: ${command.length > 80 ? `${command.slice(0, 79)}…` : command}`
}

export function describeDifference(difference: Difference): string {
  return escapeControlCharacters(
    `${describeWhere(difference)}: authority ${describeJson(difference.authority)}, reconstruction ${describeJson(difference.reconstruction)}`,
  )
}

/**
 * A difference's summary and where it is, said once: a frame's summary already names its checkpoint frame (and
 * often its row), so only what it leaves out follows it.
 */
export function describeWhere(difference: Difference): string {
  const location = difference.location
  if (location.kind !== 'terminal_frame' || !difference.summary.startsWith('checkpoint frame ')) {
    return `${difference.summary} at ${describeLocation(location)}`
  }
  const rest = [
    location.row === null || /\brow \d/.test(difference.summary) ? null : `row ${location.row}`,
    location.column === null || /\bcolumn \d/.test(difference.summary) ? null : `column ${location.column}`,
  ].filter((part) => part !== null)
  return rest.length === 0 ? difference.summary : `${difference.summary}, ${rest.join(', ')}`
}

/** A location in one phrase, e.g. "terminal byte 1,024 (line 12, column 5; authority chunk 3 +17)". */
export function describeLocation(location: Location): string {
  switch (location.kind) {
    case 'terminal_stream': {
      const chunks = [
        location.authority === null
          ? null
          : `authority chunk ${location.authority.chunk_index} +${location.authority.chunk_byte_offset}`,
        location.reconstruction === null
          ? null
          : `reconstruction chunk ${location.reconstruction.chunk_index} +${location.reconstruction.chunk_byte_offset}`,
      ].filter((part) => part !== null)
      return `terminal byte ${location.byte_offset} (line ${location.line}, column ${location.column}${chunks.length > 0 ? `; ${chunks.join(', ')}` : ''})`
    }
    case 'terminal_frame': {
      const row =
        location.row !== null
          ? `, row ${location.row}`
          : location.scrollback_row === undefined
            ? ''
            : `, scrollback row ${location.scrollback_row}`
      const column = row === '' || location.column === null ? '' : `, column ${location.column}`
      return `checkpoint frame ${location.checkpoint} (${location.trigger}${location.event_index === null ? '' : ` ${location.event_index}`})${row}${column}`
    }
    case 'terminal_redaction':
      return `sensitive-input masking${location.event_index === null ? '' : ` of event ${location.event_index}`}${location.stream_byte_offset === null ? '' : ` at stream byte ${location.stream_byte_offset}`}`
    case 'terminal_reply':
      return `terminal reply ${location.index + 1}`
    case 'interaction':
      return `event ${location.event_index}`
    case 'exit':
      return `exit.${location.field}`
    case 'file':
      return showName(location.path)
    case 'process':
      return location.field
  }
}

/** A value of a difference, strings quoted by the one rule (so both sides' excerpts read apart), cut to 120. */
function describeJson(value: JsonValue): string {
  const text = quoteJson(value)
  return text.length > 120 ? `${text.slice(0, 119)}…` : text
}
