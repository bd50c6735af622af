import { decodeKeystrokes } from '../screen/keys.js'
import { visibleText } from './group-keystrokes.js'
import type { KeystrokeEntry, RecordedTimeline } from './timeline.js'

/**
 * What a secret prompt reads as, left of the cursor once the masks drawn for the keys typed so far are set
 * aside: a word for a secret, a few words at most (`for ada`, `[input is masked]`, `for key '~/.ssh/id'`), then
 * the prompt's closing mark. A line of a file that merely holds the word has text after it, or no mark.
 */
const SECRET_PROMPT =
  /(?:pass(?:word|phrase|code)?|passwort|mot de passe|contraseña|senha|\bpin|secret|token|api[ _-]?key)\b[^:?>\]\n]{0,40}[:?>\]]$/i
/**
 * Characters that stand for typed ones in a password field (bullet, black circle, middle dot), and the blanks around
 * them; written as escapes, as the CLI's bundles hold no character beyond Latin-1 (tsup.config.ts).
 */
const MASKS_AT_END = /[\s*\u2022\u25cf\u00b7]*$/

/**
 * Which keystrokes of the recording were secrets. A program that reads a line with echo off (getpass,
 * `read -s`, sudo) says so through its terminal modes. A program that reads a password itself in raw mode (a
 * prompt library drawing `*` per key) leaves the modes as any full-screen program does, so there two things
 * must hold: the cursor sits after a secret prompt (`SECRET_PROMPT`), and nothing the person typed there was
 * drawn back. A menu's or an editor's keys fail one or the other and stay as typed.
 */
export function sensitiveKeystrokes(timeline: RecordedTimeline): ReadonlySet<KeystrokeEntry> {
  const sensitive = new Set<KeystrokeEntry>()
  timeline.entries.forEach((entry, index) => {
    if (entry.kind !== 'keystrokes' || entry.modes === undefined || entry.modes.echo) {
      return
    }
    if (entry.modes.canonical) {
      sensitive.add(entry)
      return
    }
    // What the program drew in answer to these keys: the output that came before the next action.
    const answer = timeline.entries[index + 1]?.output ?? ''
    if (atSecretPrompt(entry.screen.beforeCursor) && !drawsTyped(answer, entry.input)) {
      sensitive.add(entry)
    }
  })
  return sensitive
}

/** Whether the text left of the cursor ends with a secret prompt, masks for the keys typed so far aside. */
export function atSecretPrompt(beforeCursor: string): boolean {
  return SECRET_PROMPT.test(beforeCursor.replace(MASKS_AT_END, ''))
}

/** Whether `output` draws any character the person typed (a raw-mode prompt echoing the key itself). */
function drawsTyped(output: string, input: string): boolean {
  const drawn = new Set(visibleText(output))
  return decodeKeystrokes(input).some(
    (stroke) =>
      stroke.kind === 'text' &&
      Array.from(stroke.text).some((character) => character.trim() !== '' && drawn.has(character)),
  )
}
