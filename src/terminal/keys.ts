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
