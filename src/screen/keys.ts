import { parseKeyName, type Key, type NamedKey } from '../scenario/key-names.js'

/** The terminal modes a key's bytes depend on, read from the live terminal at dispatch. */
export interface KeyModes {
  /** DECCKM (`ESC [ ? 1 h`): arrows and Home/End send `ESC O x` instead of `ESC [ x`. */
  readonly applicationCursorKeys: boolean
}

const CSI = '\u001b['
const SS3 = '\u001bO'

/** What xterm sends for each named key; cursor keys depend on the mode, the rest do not. */
const NAMED_KEY_BYTES: Record<NamedKey, string | ((modes: KeyModes) => string)> = {
  Enter: '\r',
  Tab: '\t',
  Escape: '\u001b',
  Backspace: '\u007f',
  Space: ' ',
  Up: cursorKey('A'),
  Down: cursorKey('B'),
  Right: cursorKey('C'),
  Left: cursorKey('D'),
  Home: cursorKey('H'),
  End: cursorKey('F'),
  PageUp: `${CSI}5~`,
  PageDown: `${CSI}6~`,
  Insert: `${CSI}2~`,
  Delete: `${CSI}3~`,
  F1: `${SS3}P`,
  F2: `${SS3}Q`,
  F3: `${SS3}R`,
  F4: `${SS3}S`,
  F5: `${CSI}15~`,
  F6: `${CSI}17~`,
  F7: `${CSI}18~`,
  F8: `${CSI}19~`,
  F9: `${CSI}20~`,
  F10: `${CSI}21~`,
  F11: `${CSI}23~`,
  F12: `${CSI}24~`,
}

function cursorKey(final: string): (modes: KeyModes) => string {
  return (modes) => `${modes.applicationCursorKeys ? SS3 : CSI}${final}`
}

/** The bytes one key sends, as a real terminal (xterm) sends them in the given modes. */
function encodeKey(key: Key, modes: KeyModes): string {
  switch (key.kind) {
    case 'named': {
      const bytes = NAMED_KEY_BYTES[key.name]
      return typeof bytes === 'string' ? bytes : bytes(modes)
    }
    case 'character':
      return key.character
    case 'ctrl':
      // Ctrl+? is DEL; the others clear the character's top bits (Ctrl+C is 0x03, Ctrl+[ is ESC).
      return key.character === '?'
        ? '\u007f'
        : String.fromCharCode(key.character.toUpperCase().charCodeAt(0) & 0x1f)
    case 'alt':
      return `\u001b${encodeKey(key.key, modes)}`
  }
}

/** The bytes of a `keys` event, in order. Names were checked when the scenario was validated. */
export function encodeKeys(names: readonly string[], modes: KeyModes): string {
  return names
    .map((name) => {
      const key = parseKeyName(name)
      if (key === null) {
        throw new Error(`unknown key name ${JSON.stringify(name)}: the scenario was not validated`)
      }
      return encodeKey(key, modes)
    })
    .join('')
}

/** One thing a person typed, as a scenario writes it: text for `data`, or the name of a key for `keys`. */
export type Keystroke =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'key'; readonly name: string }
  /** A terminal's answer to a query (cursor position, attributes, colours): not typed, and REA answers itself. */
  | { readonly kind: 'reply'; readonly text: string }

/** The inverse of `NAMED_KEY_BYTES` in both cursor-key modes, longest sequence first. */
const NAMED_KEY_BY_BYTES: readonly (readonly [string, NamedKey])[] = (() => {
  const entries = new Map<string, NamedKey>()
  for (const applicationCursorKeys of [false, true]) {
    for (const [name, bytes] of Object.entries(NAMED_KEY_BYTES) as [
      NamedKey,
      (typeof NAMED_KEY_BYTES)[NamedKey],
    ][]) {
      const text = typeof bytes === 'string' ? bytes : bytes({ applicationCursorKeys })
      // Enter and Space are text a person types; Escape alone is decided below (it also starts sequences).
      if (name !== 'Enter' && name !== 'Space' && name !== 'Escape' && !entries.has(text)) {
        entries.set(text, name)
      }
    }
  }
  return [...entries].sort((a, b) => b[0].length - a[0].length)
})()

// Replies a terminal sends unasked by the person: CPR, DA1/DA2, DECRQM reports, focus, OSC and DCS strings.
const REPLY =
  // eslint-disable-next-line no-control-regex -- terminal replies are control sequences
  /^(?:\x1b\[\??\d+;\d+R|\x1b\[[?>][\d;]*c|\x1b\[\??[\d;]+\$y|\x1b\[[IO]|\x1b[\]P][^\x07\x1b]*(?:\x07|\x1b\\))/
// Any other CSI or SS3 sequence, kept as text so that nothing typed is lost.
// eslint-disable-next-line no-control-regex -- escape sequences are what is parsed
const OTHER_SEQUENCE = /^(?:\x1b\[[0-?]*[ -/]*[@-~]|\x1bO.)/

/**
 * Splits what a terminal sent for the person's keystrokes into text and named keys, inverting `encodeKeys`:
 * printable characters and Enter (`\r`) are text; DEL, Tab, arrows, function keys, Ctrl and Alt chords are keys;
 * terminal replies are marked so the recorder can leave them out.
 */
export function decodeKeystrokes(input: string): Keystroke[] {
  const strokes: Keystroke[] = []
  let index = 0
  while (index < input.length) {
    const rest = input.slice(index)
    const reply = REPLY.exec(rest)
    if (reply !== null) {
      strokes.push({ kind: 'reply', text: reply[0] })
      index += reply[0].length
      continue
    }
    const named = NAMED_KEY_BY_BYTES.find(([bytes]) => rest.startsWith(bytes))
    if (named !== undefined) {
      strokes.push({ kind: 'key', name: named[1] })
      index += named[0].length
      continue
    }
    const other = OTHER_SEQUENCE.exec(rest)
    if (other !== null) {
      strokes.push({ kind: 'text', text: other[0] })
      index += other[0].length
      continue
    }
    const character = String.fromCodePoint(rest.codePointAt(0) as number)
    index += character.length
    if (character === '\u001b') {
      const next = index < input.length ? String.fromCodePoint(input.codePointAt(index) as number) : undefined
      const inner = next === undefined ? undefined : decodeKeystrokes(next)[0]
      if (next !== undefined && inner !== undefined && inner.kind !== 'reply' && next !== '\u001b') {
        index += next.length
        strokes.push({
          kind: 'key',
          name: `Alt+${inner.kind === 'key' ? inner.name : next === '\r' ? 'Enter' : next}`,
        })
      } else {
        strokes.push({ kind: 'key', name: 'Escape' })
      }
      continue
    }
    strokes.push(decodeCharacter(character))
  }
  return strokes
}

function decodeCharacter(character: string): Keystroke {
  const code = character.charCodeAt(0)
  if (character === '\r' || code >= 0x20) {
    return { kind: 'text', text: character }
  }
  // The other C0 controls are Ctrl chords (Ctrl+C is 0x03); NUL is Ctrl+@, which `data` cannot hold.
  return {
    kind: 'key',
    name: `Ctrl+${code === 0 ? '@' : code > 0x1a ? String.fromCharCode(code + 0x40) : String.fromCharCode(code + 0x60)}`,
  }
}
