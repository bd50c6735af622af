import { NAMED_KEYS, parseKeyName } from '../scenario/key-names.js'
import { nearestName, type MarkdownRule } from './markdown-issue.js'

/**
 * One line of a block's expected text, read into what it is made of: literal text, REA's tokens (`[ROOT]`,
 * `[DURATION]`, `<port>`: literal in the comparison text), the wildcard `[..]`, and typed input written where it
 * shows on the screen: `{{text}}` typed (and echoed there), `{Key}` a named key (which shows nothing itself),
 * `{{$NAME}}` the value of an environment variable, typed as sensitive input. A line that is `...` stands for any
 * lines. docs/markdown-cases.md#expected-text has the grammar.
 */
export type Segment =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'token'; readonly text: string }
  | { readonly kind: 'any' }
  | { readonly kind: 'typed'; readonly text: string }
  | { readonly kind: 'key'; readonly name: string }
  | { readonly kind: 'secret'; readonly variable: string }

export type InputSegment = Extract<Segment, { kind: 'typed' | 'key' | 'secret' }>

export type ParsedLine =
  | { readonly kind: 'lines' }
  | { readonly kind: 'line'; readonly segments: readonly Segment[] }
  | { readonly kind: 'error'; readonly rule: MarkdownRule; readonly message: string }

/** `[ROOT]`, `[DURATION]`, `[PID]` (a redaction's), `<port>`. */
export const TOKEN = /^(?:\[[A-Z][A-Z0-9_]*\]|<port>)/
const SECRET = /^\{\{\$([A-Za-z_][A-Za-z0-9_]*)\}\}/
// Braces whose content reads as a key name: `{Enter}`, `{Ctrl+C}`, `{q}`. `{=…}` never is one (style marks).
const KEY_LIKE = /^(?:[A-Z][A-Za-z0-9]*|(?:Ctrl|Alt)\+.+|[^=])$/u
const LINE_START_ESCAPES = new Set(['$', '>', '?', '.', '\\'])

export function isInput(segment: Segment): segment is InputSegment {
  return segment.kind === 'typed' || segment.kind === 'key' || segment.kind === 'secret'
}

export function parseExpectedLine(raw: string): ParsedLine {
  if (raw.includes('\t')) {
    return {
      kind: 'error',
      rule: 'tab',
      message: 'a tab in the expected text: a terminal shows tabs as spaces, so write the spaces it shows',
    }
  }
  if (raw.trimEnd() === '...') {
    return { kind: 'lines' }
  }
  const segments: Segment[] = []
  const text = (literal: string): void => {
    const last = segments.at(-1)
    if (last?.kind === 'text') {
      segments[segments.length - 1] = { kind: 'text', text: last.text + literal }
    } else {
      segments.push({ kind: 'text', text: literal })
    }
  }
  let index = 0
  if (raw[0] === '\\' && LINE_START_ESCAPES.has(raw[1] ?? '')) {
    text(raw[1] as string)
    index = 2
  }
  while (index < raw.length) {
    const rest = raw.slice(index)
    const read = readSegment(rest)
    if (read === null) {
      const character = String.fromCodePoint(rest.codePointAt(0) ?? 0)
      text(character)
      index += character.length
    } else if ('error' in read) {
      return { kind: 'error', rule: 'unknown_key', message: read.error }
    } else {
      if (read.segment.kind === 'text') {
        text(read.segment.text)
      } else {
        segments.push(read.segment)
      }
      index += read.length
    }
  }
  return { kind: 'line', segments }
}

type Read = { readonly segment: Segment; readonly length: number } | { readonly error: string } | null

function readSegment(rest: string): Read {
  if (rest.startsWith('\\{')) {
    return { segment: { kind: 'text', text: '{' }, length: 2 }
  }
  if (rest.startsWith('[..]')) {
    return { segment: { kind: 'any' }, length: 4 }
  }
  const token = TOKEN.exec(rest)
  if (token !== null) {
    return { segment: { kind: 'token', text: token[0] }, length: token[0].length }
  }
  if (!rest.startsWith('{')) {
    return null
  }
  const secret = SECRET.exec(rest)
  if (secret !== null) {
    return { segment: { kind: 'secret', variable: secret[1] as string }, length: secret[0].length }
  }
  if (rest.startsWith('{{')) {
    const end = rest.indexOf('}}', 2)
    return end <= 2 ? null : { segment: { kind: 'typed', text: rest.slice(2, end) }, length: end + 2 }
  }
  const key = /^\{([^{}]+)\}/.exec(rest)
  if (key === null || !KEY_LIKE.test(key[1] as string)) {
    return null
  }
  const name = key[1] as string
  if (parseKeyName(name) === null) {
    const near = nearestName(name, NAMED_KEYS)
    return {
      error: `{${name}} is not a key${near === null ? '' : `; did you mean {${near}}?`} Keys are named as in scenarios (Enter, Tab, Up, Ctrl+C, Alt+x, F5, a single character; docs/events.md#keys-named-keys); write \\{${name}} for the text`,
    }
  }
  return { segment: { kind: 'key', name }, length: key[0].length }
}
