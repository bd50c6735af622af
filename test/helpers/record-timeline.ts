import { SETTLED_QUIET_MS } from '../../src/record/settled-screen.js'
import type { LocalModes } from '../../src/terminal/local-modes.js'
import type {
  KeystrokeEntry,
  RecordedTimeline,
  ResizeEntry,
  ScreenSnapshot,
  TimelineEntry,
} from '../../src/record/timeline.js'

export const ECHO: LocalModes = { echo: true, canonical: true }
export const SILENT_LINE: LocalModes = { echo: false, canonical: true }
export const RAW: LocalModes = { echo: false, canonical: false }

/**
 * A screen as the recorder reads it: `rows` as drawn; the cursor at the end of the last row unless `cursor`
 * says otherwise ([row, column]); `textRows` as drawn unless given (cells drawn as a cursor blanked).
 */
export function screen(
  rows: string[],
  options: { cursor?: [number, number]; visible?: boolean; textRows?: string[]; alternate?: boolean } = {},
): ScreenSnapshot {
  const [row, column] = options.cursor ?? [Math.max(0, rows.length - 1), Array.from(rows.at(-1) ?? '').length]
  return {
    rows,
    textRows: options.textRows ?? rows,
    cursor: { row, column, visible: options.visible ?? true, alternate: options.alternate ?? false },
    beforeCursor: Array.from(rows[row] ?? '')
      .slice(0, column)
      .join('')
      .padEnd(column, ' '),
  }
}

/** Keystrokes typed at `at_ms` on `before` (drawn by `output`); their answer is filled in by `timeline`. */
export function keys(
  at_ms: number,
  input: string,
  output: string,
  before: ScreenSnapshot | string[],
  modes: LocalModes | undefined = ECHO,
): KeystrokeEntry {
  return {
    kind: 'keystrokes',
    at_ms,
    input,
    output,
    screen: Array.isArray(before) ? screen(before) : before,
    quiet_ms: 500,
    modes,
    answer: { screen: screen([]), drew: false, settled: true },
  }
}

export function resize(at_ms: number, columns: number, output: string, rows: string[]): ResizeEntry {
  return { kind: 'resize', at_ms, columns, rows: 24, output, screen: screen(rows), quiet_ms: 500 }
}

/**
 * A timeline of `entries`, each keystroke's answer being the screen the next entry saw (drawn when the next entry's
 * output is not empty, settled when the program had been quiet for long enough then), and the last one's the
 * final screen.
 */
export function timeline(
  entries: TimelineEntry[],
  final: ScreenSnapshot = screen([]),
  options: { columns?: number; rows?: number; tail?: string; duration_ms?: number } = {},
): RecordedTimeline {
  const answered = entries.map((entry, index): TimelineEntry => {
    if (entry.kind !== 'keystrokes') {
      return entry
    }
    const next = entries[index + 1]
    return {
      ...entry,
      answer:
        next === undefined
          ? { screen: final, drew: (options.tail ?? '') !== '', settled: true }
          : { screen: next.screen, drew: next.output !== '', settled: next.quiet_ms >= SETTLED_QUIET_MS },
    }
  })
  return {
    columns: options.columns ?? 80,
    rows: options.rows ?? 24,
    entries: answered,
    output: entries.map((entry) => entry.output).join('') + (options.tail ?? ''),
    finalScreen: final,
    duration_ms: options.duration_ms ?? 1000,
  }
}
