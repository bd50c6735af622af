/**
 * The named keys an input event may send with `keys`. A name is one of the keys below, a single character,
 * or a chord: `Ctrl+<letter or @[\]^_?>` or `Alt+<any other key name>`. Names are case-sensitive, as written
 * in docs/events.md; how each is encoded (for the terminal's current cursor-key mode) is `screen/keys.ts`.
 */
export const NAMED_KEYS = [
  'Enter',
  'Tab',
  'Escape',
  'Backspace',
  'Space',
  'Up',
  'Down',
  'Left',
  'Right',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'Insert',
  'Delete',
  'F1',
  'F2',
  'F3',
  'F4',
  'F5',
  'F6',
  'F7',
  'F8',
  'F9',
  'F10',
  'F11',
  'F12',
] as const
export type NamedKey = (typeof NAMED_KEYS)[number]

/** A key as parsed from its name. */
export type Key =
  | { readonly kind: 'named'; readonly name: NamedKey }
  | { readonly kind: 'character'; readonly character: string }
  | { readonly kind: 'ctrl'; readonly character: string }
  | { readonly kind: 'alt'; readonly key: Key }

const NAMED: ReadonlySet<string> = new Set(NAMED_KEYS)
// Ctrl+ gives a C0 control only for these: letters and @ [ \ ] ^ _ ?, as a real terminal sends them.
const CTRL_CHARACTERS = /^[a-zA-Z@[\\\]^_?]$/

/** Parses a key name, or returns null when it is not one (validation names the event and the rule). */
export function parseKeyName(name: string): Key | null {
  if (NAMED.has(name)) {
    return { kind: 'named', name: name as NamedKey }
  }
  if (Array.from(name).length === 1) {
    return { kind: 'character', character: name }
  }
  if (name.startsWith('Ctrl+')) {
    const character = name.slice('Ctrl+'.length)
    return CTRL_CHARACTERS.test(character) ? { kind: 'ctrl', character } : null
  }
  if (name.startsWith('Alt+')) {
    const key = parseKeyName(name.slice('Alt+'.length))
    return key === null || key.kind === 'alt' ? null : { kind: 'alt', key }
  }
  return null
}

/** The text a sensitive `keys` event types, for masking: its printable single characters, in order. */
export function typedText(keys: readonly string[]): string {
  return keys
    .map((name) => {
      const key = parseKeyName(name)
      return key?.kind === 'character'
        ? key.character
        : key?.kind === 'named' && key.name === 'Space'
          ? ' '
          : ''
    })
    .join('')
}
