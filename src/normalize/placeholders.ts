import type { PLACEHOLDER_NAMES } from '../scenario/schema.js'
import type { StreamRule, RuleMatch } from './stream-rule.js'
import {
  characterAt,
  characterBefore,
  escapeSequenceEndsAt,
  isLetterOrDigit,
  isNameCharacter,
} from './text-boundaries.js'

// Frozen: captures commit this version, so a change to what a placeholder matches or writes needs a new module.

/** The semantics of `normalization.placeholders` committed by captures that use them. */
export const PLACEHOLDER_NORMALIZATION_VERSION = 'context-placeholders-v1'

/** Their order in `PLACEHOLDER_NAMES` decides between two names with the same value. */
export type PlaceholderName = (typeof PLACEHOLDER_NAMES)[number]

export const PLACEHOLDER_TOKENS: Readonly<Record<PlaceholderName, string>> = {
  root: '[ROOT]',
  cwd: '[CWD]',
  tmpdir: '[TMPDIR]',
  home: '[HOME]',
  user: '[USER]',
  hostname: '[HOSTNAME]',
}

/** Values shorter than this (`/`, `/a`, a one- or two-letter name) would replace ordinary text. */
export const MIN_PLACEHOLDER_CHARACTERS = 3

/** Paths are found at path boundaries; user and host names as whole words. */
export type PlaceholderKind = 'path' | 'word'

export const PLACEHOLDER_KINDS: Readonly<Record<PlaceholderName, PlaceholderKind>> = {
  root: 'path',
  cwd: 'path',
  tmpdir: 'path',
  home: 'path',
  user: 'word',
  hostname: 'word',
}

/** One way a value is printed, and where it may stand. */
export interface Spelling {
  readonly name: PlaceholderName
  readonly text: string
  readonly kind: PlaceholderKind
  /** A percent-encoded path is found only inside a `file://` URL. */
  readonly urlOnly: boolean
}

const FILE_URL_PREFIX = 'file://'

/**
 * Every spelling of a path value a program prints: as is, through its real path when a symlink is involved,
 * percent-encoded in a `file://` URL, and escaped in JSON (`\"`, `\\`, and `\/` as some encoders write `/`).
 * A trailing separator needs no spelling of its own: a path boundary may be a `/`.
 */
export function pathSpellings(name: PlaceholderName, paths: readonly string[]): Spelling[] {
  const spellings = new Map<string, Spelling>()
  const add = (text: string, urlOnly: boolean): void => {
    if (!spellings.has(text)) {
      spellings.set(text, { name, text, kind: 'path', urlOnly })
    }
  }
  for (const value of paths) {
    add(value, false)
    const json = JSON.stringify(value).slice(1, -1)
    add(json, false)
    add(json.replaceAll('/', '\\/'), false)
    add(encodeURI(value).replaceAll('?', '%3F').replaceAll('#', '%23'), true)
  }
  return [...spellings.values()]
}

export function wordSpellings(name: PlaceholderName, value: string): Spelling[] {
  return [{ name, text: value, kind: 'word', urlOnly: false }]
}

/**
 * The placeholder rule: at each position the longest spelling that stands at a boundary wins, so a root inside
 * `HOME` is the root. A path must not continue a longer path before it (a glob `!**` right before `/build` keeps it) or after it
 * (`/home/user` in `/home/username`); a name must be a whole word.
 */
export class PlaceholderRule implements StreamRule {
  readonly #spellings: readonly Spelling[]
  readonly #firstCharacters: RegExp
  readonly #longest: number
  readonly #startCharacters: ReadonlySet<string>

  constructor(spellings: readonly Spelling[]) {
    this.#spellings = [...spellings].sort((a, b) => b.text.length - a.text.length)
    const first = [...new Set(this.#spellings.map((spelling) => spelling.text[0] ?? ''))]
    this.#firstCharacters = new RegExp(`[${first.map(escapeClassCharacter).join('')}]`, 'g')
    this.#longest = this.#spellings[0]?.text.length ?? 0
    this.#startCharacters = new Set(first)
  }

  find(text: string, from: number, limit: number): RuleMatch | undefined {
    if (this.#spellings.length === 0) {
      return undefined
    }
    const search = this.#firstCharacters
    search.lastIndex = from
    for (let found = search.exec(text); found !== null && found.index < limit; found = search.exec(text)) {
      const spelling = this.#spellingAt(text, found.index)
      if (spelling !== undefined) {
        return {
          start: found.index,
          end: found.index + spelling.text.length,
          replacement: PLACEHOLDER_TOKENS[spelling.name],
          label: spelling.name,
        }
      }
    }
    return undefined
  }

  undecidedFrom(text: string, from: number): number {
    // A spelling needs up to two characters after it to know its boundary (`.` then a letter continues).
    for (let start = Math.max(from, text.length - this.#longest - 2); start < text.length; start++) {
      if (!this.#startCharacters.has(text[start] as string)) {
        continue
      }
      const tail = text.slice(start)
      for (const spelling of this.#spellings) {
        if (
          spelling.text.startsWith(tail) ||
          (tail.startsWith(spelling.text) && tail.length < spelling.text.length + 2)
        ) {
          return start
        }
      }
    }
    return text.length
  }

  #spellingAt(text: string, index: number): Spelling | undefined {
    for (const spelling of this.#spellings) {
      if (
        text.startsWith(spelling.text, index) &&
        startsAtBoundary(text, index, spelling) &&
        endsAtBoundary(text, index + spelling.text.length, spelling.kind)
      ) {
        return spelling
      }
    }
    return undefined
  }
}

function startsAtBoundary(text: string, index: number, spelling: Spelling): boolean {
  if (text.startsWith(FILE_URL_PREFIX, index - FILE_URL_PREFIX.length)) {
    return spelling.kind === 'path'
  }
  if (spelling.urlOnly) {
    return false
  }
  const before = characterBefore(text, index)
  if (before === undefined) {
    return true
  }
  const continues =
    spelling.kind === 'path' ? isPathCharacter(before) : isNameCharacter(before) || before === '.'
  return !continues || escapeSequenceEndsAt(text, index)
}

/** Whether the value ends at `end`: the end of the text, a separator, or a character no name continues with. */
function endsAtBoundary(text: string, end: number, kind: PlaceholderKind): boolean {
  const next = characterAt(text, end)
  if (next === undefined || (kind === 'path' && (next === '/' || next === '\\'))) {
    return true
  }
  if (next === '.') {
    // `/home/user.` ends a sentence; `/home/user.bak` and `user.name` continue.
    return !isLetterOrDigit(characterAt(text, end + 1))
  }
  return !isNameCharacter(next)
}

/** Characters that make a path before the value part of the same path (`/mnt/home/u`, a glob's `**`). */
function isPathCharacter(character: string): boolean {
  return (
    isNameCharacter(character) ||
    character === '/' ||
    character === '.' ||
    character === '*' ||
    character === '\\'
  )
}

function escapeClassCharacter(character: string): string {
  return /[\\\]^-]/.test(character) ? `\\${character}` : character
}
