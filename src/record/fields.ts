import { decodeKeystrokes, type Keystroke } from '../screen/keys.js'
import { isEchoOnly } from './group-keystrokes.js'
import { readMidRedraw, SETTLED_QUIET_MS } from './settled-screen.js'
import type { KeystrokeEntry, RecordedTimeline, ResizeEntry, ScreenSnapshot } from './timeline.js'

/** The keystrokes a person typed into one field: from its first key up to the key that ended it (Enter). */
export interface Field {
  readonly kind: 'field'
  /** Each read of the keyboard, in order, with the keystrokes it held (terminal replies left out). */
  readonly keys: readonly { readonly entry: KeystrokeEntry; readonly strokes: readonly Keystroke[] }[]
  /** What the program wrote before the field's first key, since the previous unit's last action. */
  readonly outputBefore: string
  /**
   * The screen when the person did the next thing (the next field's first key, a resize), or the final screen: a
   * later look than the answer to the field's last key, which a program lagging behind fast keys may not have
   * drawn yet.
   */
  readonly screenAfter: ScreenSnapshot
}

/** A resize of the person's terminal. */
export interface Resize {
  readonly kind: 'resize'
  readonly entry: ResizeEntry
  readonly outputBefore: string
}

export type RecordedUnit = Field | Resize

/** Keys that end an answer: the program reads the field once they come. */
const ENDING_KEYS = new Set(['Ctrl+C', 'Ctrl+D', 'Escape'])

/**
 * Splits a recording into fields and resizes. A field is everything typed into one prompt: its keys go together,
 * whatever the program redraws between them (a prompt library redraws the whole line on every key), up to and
 * including the key that ends the answer (Enter, or Ctrl+C, Ctrl+D, Escape). A field also ends when the program
 * moved on without one (a single-key answer): the next key is typed where the field's prompt is no longer shown.
 * A screen read in the middle of a redraw (the prompt erased and not drawn again yet, or read while the program
 * was still writing) never ends a field.
 * On the alternate screen (a full-screen program, whose Enter is a command) a key joins the field only when the
 * program drew nothing but its echo since the field began.
 */
export function splitFields(timeline: RecordedTimeline): RecordedUnit[] {
  const units: RecordedUnit[] = []
  let open: { keys: Field['keys'][number][]; output: string; ended: boolean } | undefined
  let pending = ''
  for (const entry of timeline.entries) {
    if (entry.kind === 'resize') {
      open = undefined
      units.push({ kind: 'resize', entry, outputBefore: pending + entry.output })
      pending = ''
      continue
    }
    const strokes = decodeKeystrokes(entry.input).filter((stroke) => stroke.kind !== 'reply')
    if (strokes.length === 0) {
      // A reply of the person's terminal: not typed, but what the program drew before it counts.
      if (open === undefined) {
        pending += entry.output
      } else {
        open.output += entry.output
      }
      continue
    }
    if (
      open !== undefined &&
      !open.ended &&
      continuesField(open.keys, open.output + entry.output, entry, strokes, timeline.columns)
    ) {
      open.keys.push({ entry, strokes })
      open.output += entry.output
    } else {
      open = { keys: [{ entry, strokes }], output: '', ended: false }
      units.push({
        kind: 'field',
        keys: open.keys,
        outputBefore: pending + entry.output,
        screenAfter: timeline.finalScreen,
      })
      pending = ''
    }
    open.ended = strokes.some(endsAnswer)
  }
  return units.map((unit, index) => {
    const next = units[index + 1]
    if (unit.kind === 'resize' || next === undefined) {
      return unit
    }
    return { ...unit, screenAfter: next.kind === 'resize' ? next.entry.screen : firstScreen(next) }
  })
}

function firstScreen(field: Field): ScreenSnapshot {
  return (field.keys[0] as Field['keys'][number]).entry.screen
}

function endsAnswer(stroke: Keystroke): boolean {
  return stroke.kind === 'text'
    ? /[\r\n]/.test(stroke.text)
    : stroke.kind === 'key' && ENDING_KEYS.has(stroke.name)
}

/** Whether a key typed with `entry` still goes into the open field (`keys`, with `output` drawn since it began). */
function continuesField(
  keys: readonly Field['keys'][number][],
  output: string,
  entry: KeystrokeEntry,
  strokes: readonly Keystroke[],
  columns: number,
): boolean {
  const first = keys[0] as Field['keys'][number]
  if (entry.screen.cursor.alternate) {
    return isEchoOnly(
      output,
      keys.flatMap((key) => key.strokes),
    )
  }
  if (entry.modes?.canonical === true) {
    // The terminal collects the line: nothing the program draws can end it before Enter.
    return true
  }
  const start = first.entry.screen
  if (promptStillShown(start, entry.screen, columns)) {
    return true
  }
  if (entry.quiet_ms >= SETTLED_QUIET_MS && !readMidRedraw(start, entry.screen)) {
    return false
  }
  // Read while the program was still drawing (between its erase and its line, say). A key that submits belongs
  // to the field it submits (its answer shows the field done, `✔ Your name`); another key is told by the screen
  // that answered it, and when that too is unsettled nothing shows the prompt gone, so the key stays in the field.
  const answer = entry.answer
  return (
    strokes.some(endsAnswer) ||
    !answer.settled ||
    readMidRedraw(start, answer.screen) ||
    promptStillShown(start, answer.screen, columns)
  )
}

/**
 * Whether the screen `now` still shows the prompt the field began at (`start`): with a shown cursor, the cursor's
 * row still begins with most of the text that was left of the cursor (a default such as `(Bob)` vanishes at the
 * first key), or continues a row the typed text filled; with a hidden one (prompt libraries that draw their own
 * cursor), the row the cursor was on is still on the screen.
 */
export function promptStillShown(start: ScreenSnapshot, now: ScreenSnapshot, columns: number): boolean {
  const prompt = start.beforeCursor.trimEnd()
  const letters = (text: string): number => text.replace(/\s/g, '').length
  if (start.cursor.visible && now.cursor.visible && letters(prompt) >= 2) {
    const above = now.rows[now.cursor.row - 1]
    const shared = commonPrefix(prompt, now.beforeCursor)
    return (
      (letters(shared) >= 2 && letters(shared) * 2 >= letters(prompt)) ||
      (above !== undefined && Array.from(above).length >= columns)
    )
  }
  const row = (start.rows[start.cursor.row] ?? '').trimEnd()
  return row === '' || now.rows.some((line) => line.includes(row))
}

/** The longest text both begin with. */
export function commonPrefix(a: string, b: string): string {
  let length = 0
  while (length < a.length && length < b.length && a[length] === b[length]) {
    length++
  }
  return a.slice(0, length)
}
