import type { Keystroke } from '../screen/keys.js'

// Escape and control sequences an echo may carry (cursor moves, erases, colours): they draw no text.
const SEQUENCES =
  // eslint-disable-next-line no-control-regex -- escape sequences are what is removed
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[()][0-9A-Za-z]|\x1b[^[\]()]/g
// eslint-disable-next-line no-control-regex -- C0 controls, space and DEL draw no text either
const BLANKS = /[\x00-\x20\x7f]/g
/** Characters that stand for typed ones: masks of password fields. */
const MASKS = ['*', '•']

/**
 * Whether `output` only echoes what was typed: once escape sequences and blanks are removed, every character it
 * draws is one the person typed (or a mask, or the `^X` a terminal shows for a control key). Such output does
 * not start a new event: typing `Ada` at a prompt is one event even though each letter is echoed before the next.
 */
export function isEchoOnly(output: string, typed: readonly Keystroke[]): boolean {
  const allowed = new Set<string>(MASKS)
  for (const stroke of typed) {
    if (stroke.kind === 'text') {
      for (const character of stroke.text) {
        allowed.add(character)
      }
    } else if (stroke.kind === 'key') {
      const chord = /^Ctrl\+(.)$/.exec(stroke.name)
      if (chord !== null) {
        allowed.add('^').add((chord[1] as string).toUpperCase())
      } else if (Array.from(stroke.name).length === 1) {
        allowed.add(stroke.name)
      }
    }
  }
  return visibleText(output).every((character) => allowed.has(character))
}

/** The characters `output` draws: its text once escape sequences, controls and blanks are removed. */
export function visibleText(output: string): string[] {
  return Array.from(output.replace(SEQUENCES, '').replace(BLANKS, ''))
}

/** An input event's content as a scenario writes it: `data` when everything is text, else `keys`. */
export function inputContent(
  strokes: readonly Keystroke[],
  raw: string,
): { data: string } | { keys: string[] } {
  const typed = strokes.filter((stroke) => stroke.kind !== 'reply')
  if (typed.every((stroke) => stroke.kind === 'text')) {
    return { data: typed.map((stroke) => stroke.text).join('') }
  }
  // A sequence REA has no key name for is sent as it came, in `data`, so nothing typed is lost.
  if (typed.some((stroke) => stroke.kind === 'text' && Array.from(stroke.text).length > 1)) {
    return { data: raw }
  }
  return {
    keys: typed.map((stroke) =>
      stroke.kind === 'key'
        ? stroke.name
        : stroke.text === '\r'
          ? 'Enter'
          : stroke.text === ' '
            ? 'Space'
            : stroke.text,
    ),
  }
}
