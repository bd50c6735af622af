import type { CaptureStatus, DueEvent } from '../capture/live-status.js'
import { describeCondition, ms } from '../evidence/describe-run.js'
import { showCommandLine } from '../internal/escape-controls.js'

/** Erase from the cursor to the end of the screen: the rest of the line, and anything a narrower terminal wrapped below. */
const ERASE_BELOW = '\u001b[J'
/** Autowrap (DECAWM) off and on again: text past the right margin is clipped instead of going on to the next row. */
const NO_WRAP = '\u001b[?7l'
const WRAP = '\u001b[?7h'
/** The command is given at least this many cells, whatever else the line holds. */
const COMMAND_MINIMUM_CELLS = 16

/** The one line a person watches while `rea capture-process` runs on a terminal. */
export interface StatusLine {
  readonly onStatus: (status: CaptureStatus) => void
  /** Erases the line and draws nothing more: the capture has ended, or failed. */
  stop(): void
}

/**
 * A live status line on a terminal's stderr, drawn in place and erased at the end, so the terminal is left as it was
 * found. The line is fitted to the terminal's width, but a terminal made narrower can be drawn on before REA hears
 * of it (SIGWINCH comes later), so each line is drawn with autowrap off: past the margin it is clipped, never
 * wrapped onto a row the next draw would not return to. The cursor waits at the line's start, from where the erase
 * also takes what a narrower terminal rewrapped below it (VTE, iTerm2 and kitty rewrap the cursor's line; xterm.js
 * clips it). `command` is what runs; it is shown by the one escaping rule.
 */
export function createStatusLine(stream: NodeJS.WriteStream, command: readonly string[]): StatusLine {
  const shown = showCommandLine(command)
  let drawn = ''
  let stopped = false
  return {
    onStatus(status) {
      if (stopped) {
        return
      }
      // A terminal that reports no size (0 columns) is taken as the usual 80.
      const columns = stream.columns > 0 ? stream.columns : 80
      const text = fitToWidth(statusText(status, shown, columns), columns)
      if (text !== drawn) {
        drawn = text
        stream.write(`\r${NO_WRAP}${text}${ERASE_BELOW}${WRAP}\r`)
      }
    },
    stop() {
      if (!stopped && drawn !== '') {
        stream.write(`\r${ERASE_BELOW}`)
      }
      stopped = true
    },
  }
}

const PHASE_WORDS = {
  prepare: 'starting',
  running: 'running',
  settling: 'settling',
  cleanup: 'cleaning up',
} as const

/**
 * `rea ▸ node signup.mjs · 2.4 s · 1.2 KiB output · event 0 (input) waits for screen "Name? "`: what runs, for how
 * long, how much the program wrote, what the run waits for. The command gets what room the rest leaves, cut in its
 * middle (so the program and its last arguments show); the whole line is then fitted to `columns`, a long
 * condition losing its end first.
 */
export function statusText(status: CaptureStatus, command: string, columns = 80): string {
  const state =
    status.phase === 'running'
      ? (dueText(status.dueEvent, status.eventCount) ?? 'running')
      : PHASE_WORDS[status.phase]
  const rest = ` · ${elapsed(status.elapsedMs)} · ${size(status.outputBytes)} output · ${state}`
  const prefix = 'rea ▸ '
  const room = Math.max(COMMAND_MINIMUM_CELLS, columns - 1 - prefix.length - cellWidth(rest))
  return `${prefix}${cutMiddle(command, room)}${rest}`
}

function dueText(due: DueEvent | null, count: number): string | undefined {
  if (due === null) {
    return count === 0 ? undefined : 'every event sent; waiting for the exit'
  }
  const event = `event ${due.index} (${due.type})`
  if (due.waitsFor === 'condition' && due.condition !== null) {
    return `${event} waits for ${describeCondition(due.condition)}`
  }
  return due.atMs === null ? `${event} is due` : `${event} is due at ${ms(due.atMs)}`
}

function elapsed(elapsedMs: number): string {
  const seconds = elapsedMs / 1000
  if (seconds < 60) {
    return `${seconds.toFixed(1)} s`
  }
  const whole = Math.floor(seconds)
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`
}

function size(bytes: number): string {
  if (bytes < 1024) {
    return `${bytes} B`
  }
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}

// Characters a terminal draws two cells wide (East Asian wide and fullwidth, most emoji): a line measured in
// characters alone would wrap.
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u

function cells(character: string): number {
  return WIDE.test(character) ? 2 : 1
}

function cellWidth(text: string): number {
  let width = 0
  for (const character of text) {
    width += cells(character)
  }
  return width
}

/** The first characters of `text` that fill at most `limit` cells. */
function head(characters: readonly string[], limit: number): string[] {
  const kept: string[] = []
  let width = 0
  for (const character of characters) {
    width += cells(character)
    if (width > limit) {
      break
    }
    kept.push(character)
  }
  return kept
}

/** The text cut to fit `columns` cells less one (the cursor's), ending in `…` when cut. */
export function fitToWidth(text: string, columns = 80): string {
  const limit = Math.max(1, columns - 1)
  return cellWidth(text) <= limit ? text : `${head(Array.from(text), limit - 1).join('')}…`
}

/** The text in at most `limit` cells, its middle replaced by `…` when cut. */
function cutMiddle(text: string, limit: number): string {
  if (cellWidth(text) <= limit) {
    return text
  }
  const characters = Array.from(text)
  const start = head(characters, Math.ceil((limit - 1) / 2))
  const end = head(characters.toReversed(), Math.floor((limit - 1) / 2)).toReversed()
  return `${start.join('')}…${end.join('')}`
}
