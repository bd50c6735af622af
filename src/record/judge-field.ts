import { commonPrefix, type Field } from './fields.js'
import { readMidRedraw } from './settled-screen.js'
import type { AnswerScreen, ScreenSnapshot } from './timeline.js'
import { TypedLine } from './typed-line.js'

/** Why a field was kept out as a secret. */
export type SecretReason =
  /** The terminal did not echo, in line mode: the program asked it to hide the line (getpass, `read -s`). */
  | 'echo_off'
  /** The program drew masks (`*`, `▪`, `•`) where the text went. */
  | 'masked'
  /** The program drew nothing at the field, or redrew it unchanged (`[input is masked]`). */
  | 'nothing_drawn'
  /** What was drawn at the field was neither the typed text nor masks, or nothing could be read: REA cannot tell. */
  | 'uncertain'
  /** `--secret` named the field's prompt. */
  | 'named_secret'

/** Why a field was written as typed. */
export type ClearReason =
  /** The terminal echoed the line as the person typed it. */
  | 'terminal_echo'
  /** The program drew the typed text at the field. */
  | 'shown_as_typed'
  /** Nothing but keys and blanks was typed (a menu's arrows, Space, Enter). */
  | 'nothing_typed'
  /** `--not-secret` named the field's prompt. */
  | 'named_not_secret'
  /** One key without Enter that the program did not draw (a pager's `q`): a command, too short to hide anything. */
  | 'single_key'

export type FieldJudgement =
  | { readonly secret: true; readonly reason: SecretReason }
  | { readonly secret: false; readonly reason: ClearReason }

/**
 * What the field showed after one key that changed the typed text. `mid_redraw`: the screen was read between the
 * program's erase and its drawing; like `no_evidence` it decides nothing, but neither may it make a lone key a
 * command (`single_key`): what the program did with that key was not seen.
 */
type KeyState = 'visible' | 'masked' | 'nothing' | 'other' | 'no_evidence' | 'mid_redraw'

/** Characters that are not text of their own: a run of one of them where text went is a mask. */
const TEXT_CHARACTER = /[\p{L}\p{N}]/u
/** Drawn after the typed text as a cursor of the program's own, as a plain character (clack's block). */
const TRAILING_CURSOR = /[\s\u2588]+$/

/**
 * Whether a field is a secret, judged from the screen around the cursor, key by key (docs/record.md#secrets):
 * the terminal's modes first (echo off in line mode is certain either way), then, for a program that reads keys
 * itself, what the field showed after each key that changed the typed text. Masks or nothing at the field make it
 * a secret; the typed text at the field after every such key makes it clear; anything else, or no screen to
 * judge by, is uncertain, and uncertain is secret.
 */
export function judgeField(field: Field, columns: number): FieldJudgement {
  const modes = field.keys.map(({ entry }) => entry.modes)
  if (modes.some((mode) => mode !== undefined && !mode.echo && mode.canonical)) {
    return { secret: true, reason: 'echo_off' }
  }
  if (modes.every((mode) => mode !== undefined && mode.echo && mode.canonical)) {
    return { secret: false, reason: 'terminal_echo' }
  }
  const start = (field.keys[0] as Field['keys'][number]).entry.screen
  const line = new TypedLine()
  // The text after each key that changed it: a screen read before the program caught up shows an earlier one.
  const history: string[] = []
  const states: KeyState[] = []
  let lineEnded = false
  for (const { entry, strokes } of field.keys) {
    let changed = false
    for (const stroke of strokes) {
      if (lineEnded && stroke.kind === 'text') {
        // Text after a line end in one read (a paste of several lines): REA cannot say which line showed what.
        return { secret: true, reason: 'uncertain' }
      }
      changed = line.apply(stroke) || changed
      lineEnded ||= stroke.kind === 'text' && /[\r\n]/.test(stroke.text)
    }
    if (changed && line.text.trim() !== '') {
      states.push(
        lineEnded
          ? shownAfterAnswer(line, start, entry.answer.screen)
          : fromSettledScreen(
              keyState(line, history, start, entry.screen, entry.answer, columns),
              start,
              entry.answer,
            ),
      )
    }
    if (changed) {
      history.push(line.text)
    }
  }
  if (states.includes('masked')) {
    return { secret: true, reason: 'masked' }
  }
  // Nothing at a key, and the whole line (that key included) at a later one: the program was lagging behind.
  const lastShown = states.lastIndexOf('visible')
  if (states.some((state, index) => state === 'nothing' && index > lastShown)) {
    return { secret: true, reason: 'nothing_drawn' }
  }
  if (states.length === 0) {
    return { secret: false, reason: 'nothing_typed' }
  }
  if (states.includes('other')) {
    return { secret: true, reason: 'uncertain' }
  }
  if (!lineEnded && Array.from(line.text).length === 1 && states.every((state) => state === 'no_evidence')) {
    return { secret: false, reason: 'single_key' }
  }
  // Each `visible` state showed everything typed so far; keys after the last one need the screen after the answer.
  // A program lagging behind fast keys may draw the line only after the answer was read: the screen when the person
  // did the next thing is a later look.
  const last = field.keys.at(-1) as Field['keys'][number]
  if (
    states.at(-1) === 'visible' ||
    shownAfterAnswer(line, start, last.entry.answer.screen) === 'visible' ||
    shownAfterAnswer(line, start, field.screenAfter) === 'visible'
  ) {
    return { secret: false, reason: 'shown_as_typed' }
  }
  return { secret: true, reason: 'uncertain' }
}

/**
 * What the field showed after a key (`state`, as keyState read it), where only a settled screen may say "nothing":
 * a screen read mid-redraw (the prompt erased and not drawn again) or while the program was still writing holds
 * part of the answer at most.
 */
function fromSettledScreen(state: KeyState, start: ScreenSnapshot, answer: AnswerScreen): KeyState {
  if (answer.drew && readMidRedraw(start, answer.screen)) {
    return 'mid_redraw'
  }
  return state === 'nothing' && !answer.settled ? 'mid_redraw' : state
}

/**
 * What the field shows once the program answered a key: the text on the cursor's row (with the rows the typed
 * text filled before it) when the cursor is shown; when it is hidden, on the changed row nearest at or above it
 * (clack keeps its cursor two rows below the field, Ink one). The part the prompt as first drawn already held is
 * cut off, and so is the cursor a program draws of its own.
 */
function keyState(
  line: TypedLine,
  history: readonly string[],
  start: ScreenSnapshot,
  before: ScreenSnapshot,
  answer: AnswerScreen,
  columns: number,
): KeyState {
  if (!answer.drew) {
    return 'no_evidence'
  }
  const screen = answer.screen
  let row: number
  let text: string
  if (screen.cursor.visible) {
    row = screen.cursor.row
    text = screen.textRows[row] ?? ''
    while (row > 0 && Array.from(screen.rows[row - 1] ?? '').length >= columns) {
      row--
      text = (screen.textRows[row] ?? '') + text
    }
  } else {
    // A screen before the key read mid-redraw would make every redrawn row seem changed: compare with the start.
    const base = readMidRedraw(start, before) ? start : before
    const changed = changedRows(base.textRows, screen.textRows)
    if (changed.length === 0) {
      return 'nothing'
    }
    const cursor = screen.cursor.row
    row = changed.reduce((best, index) => (rank(index, cursor) < rank(best, cursor) ? index : best))
    text = screen.textRows[row] ?? ''
  }
  const field = text
    .slice(commonPrefix(text, start.textRows[row] ?? '').length)
    .replace(TRAILING_CURSOR, '')
    .trim()
  return compareField(field, line, history)
}

/** Rows at or above the cursor come first, nearest first; rows below after them. */
function rank(index: number, cursor: number): number {
  return index <= cursor ? cursor - index : 1000 + index - cursor
}

function compareField(field: string, line: TypedLine, history: readonly string[]): KeyState {
  const typed = line.text
  if (field === '') {
    return 'nothing'
  }
  if (field.includes(typed) || (line.completed && isSubsequence(typed.replace(/\s/g, ''), field))) {
    return 'visible'
  }
  if (history.some((earlier) => earlier.trim() !== '' && field === earlier.trim())) {
    // The program had not drawn this key yet: the field shows what was typed before it.
    return 'no_evidence'
  }
  const characters = Array.from(field)
  const first = characters[0] as string
  if (
    !TEXT_CHARACTER.test(first) &&
    characters.every((character) => character === first) &&
    characters.length <= Array.from(typed).length
  ) {
    return 'masked'
  }
  return 'other'
}

/**
 * After the line ended: whether a row the answer changed shows the typed text (`✔ Your name? Ada`). A text of
 * one or two characters could be anywhere (`Attempt 1`), so it counts only on a row that also holds a word of
 * the prompt, or right below one.
 */
function shownAfterAnswer(line: TypedLine, start: ScreenSnapshot, after: ScreenSnapshot): KeyState {
  const rows = after.textRows
  const words = promptWords(start)
  const nearPrompt = (index: number): boolean =>
    [rows[index] ?? '', rows[index - 1] ?? ''].some((row) => words.some((word) => row.includes(word)))
  const shown = changedRows(start.textRows, rows).some(
    (index) =>
      (rows[index] ?? '').includes(line.text) && (Array.from(line.text).length >= 3 || nearPrompt(index)),
  )
  return shown ? 'visible' : 'no_evidence'
}

/** The words of three letters or more on the prompt's row (the cursor's row, or the nearest above with words). */
function promptWords(start: ScreenSnapshot): string[] {
  for (let index = start.cursor.row; index >= 0; index--) {
    const words = (start.textRows[index] ?? '').match(/[\p{L}\p{N}]{3,}/gu)
    if (words !== null) {
      return words
    }
  }
  return []
}

function changedRows(before: readonly string[], after: readonly string[]): number[] {
  const indexes: number[] = []
  for (let index = 0; index < Math.max(before.length, after.length); index++) {
    if ((before[index] ?? '') !== (after[index] ?? '')) {
      indexes.push(index)
    }
  }
  return indexes
}

function isSubsequence(needle: string, haystack: string): boolean {
  let at = 0
  for (const character of haystack) {
    if (at < needle.length && character === needle[at]) {
      at++
    }
  }
  return at === needle.length
}
