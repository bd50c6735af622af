import type { Evidence } from '../evidence/schema.js'
import { castEvents, type CastEvent } from './cast-events.js'

export const ASCIICAST_VERSIONS = [2, 3] as const
export type AsciicastVersion = (typeof ASCIICAST_VERSIONS)[number]

export interface ExportAsciicastOptions {
  /** asciicast v2 (absolute times; what asciinema 2.x plays) or v3 (intervals, an `x` exit event). Default 2. */
  readonly version?: AsciicastVersion
  /** The recording's title in the header. Default: none. */
  readonly title?: string
}

/**
 * A capture as an asciicast recording (newline-delimited JSON, `.cast`), for `asciinema play` or any asciicast
 * player: output chunks as `o` with their original text, dispatched input as `i` (a sensitive value as one `*`
 * per byte), resizes as `r`, and markers (`m`) for checkpoints, signals, omitted output and the exit. Times are
 * seconds from launch. Output that was not valid UTF-8 plays as U+FFFD, since asciicast is text.
 *
 * @example
 * await writeFile('capture.cast', exportAsciicast(await readEvidenceFile('capture.json')))
 */
export function exportAsciicast(evidence: Evidence, options: ExportAsciicastOptions = {}): string {
  const version = options.version ?? 2
  const events = castEvents(evidence)
  const lines =
    version === 2
      ? [JSON.stringify(headerV2(evidence, options)), ...events.map((event) => eventLine(event, event.at_ms))]
      : [JSON.stringify(headerV3(evidence, options)), ...intervalsV3(evidence, events)]
  return `${lines.join('\n')}\n`
}

function eventLine(event: Pick<CastEvent, 'code' | 'data'>, ms: number): string {
  // Milliseconds are integers, so three decimals are exact.
  return JSON.stringify([Number((ms / 1000).toFixed(3)), event.code, event.data])
}

function commandLine(evidence: Evidence): string {
  const { executable, arguments: args } = evidence.commitments.executable.value
  return [executable, ...args].map(quoteForShell).join(' ')
}

function quoteForShell(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}

function common(evidence: Evidence, options: ExportAsciicastOptions) {
  return {
    timestamp: Math.floor(Date.parse(evidence.captured_at) / 1000),
    command: commandLine(evidence),
    ...(options.title === undefined ? {} : { title: options.title }),
  }
}

function headerV2(evidence: Evidence, options: ExportAsciicastOptions) {
  const contract = evidence.commitments.comparison_contract.value
  return {
    version: 2,
    width: contract.terminal.columns,
    height: contract.terminal.rows,
    ...common(evidence, options),
    env: { TERM: contract.terminal_type },
  }
}

function headerV3(evidence: Evidence, options: ExportAsciicastOptions) {
  const contract = evidence.commitments.comparison_contract.value
  return {
    version: 3,
    term: { cols: contract.terminal.columns, rows: contract.terminal.rows, type: contract.terminal_type },
    ...common(evidence, options),
  }
}

/** v3 counts each event's time from the previous one, and ends with the exit status when there is one. */
function intervalsV3(evidence: Evidence, events: readonly CastEvent[]): string[] {
  const lines: string[] = []
  let previous = 0
  for (const event of events) {
    lines.push(eventLine(event, event.at_ms - previous))
    previous = event.at_ms
  }
  const status = exitStatus(evidence.exit)
  if (status !== null) {
    lines.push(eventLine({ code: 'x', data: String(status) }, Math.max(0, evidence.exit.at_ms - previous)))
  }
  return lines
}

/** The status a shell would report: the code, or 128 + the signal. */
function exitStatus(exit: Evidence['exit']): number | null {
  if (exit.code !== null) {
    return exit.code
  }
  if (exit.signal !== null && exit.signal > 0) {
    return 128 + exit.signal
  }
  return exit.finalization?.exit_code ?? null
}
