// eslint-disable-next-line no-control-regex -- ESC introduces the sequence
const CSI_BEFORE = /\x1b\[[0-?]{0,32}[ -/]{0,4}[@-~]$/
const CSI_LOOKBACK_CHARACTERS = 40
const NAME_CHARACTER = /[\p{L}\p{N}_~-]/u
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u
// Line terminators as the `m` flag of a JavaScript regex reads them.
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/

/**
 * Whether a control sequence ends right before `index`: coloured text after `ESC[1m` starts a word although
 * the sequence's last character is a letter.
 */
export function escapeSequenceEndsAt(text: string, index: number): boolean {
  return CSI_BEFORE.test(text.slice(Math.max(0, index - CSI_LOOKBACK_CHARACTERS), index))
}

/** Letters, digits, `_`, `~` and `-`: the characters that continue a file or user name. */
export function isNameCharacter(character: string | undefined): boolean {
  return character !== undefined && NAME_CHARACTER.test(character)
}

export function isLetterOrDigit(character: string | undefined): boolean {
  return character !== undefined && LETTER_OR_DIGIT.test(character)
}

export function isLineTerminator(character: string | undefined): boolean {
  return character !== undefined && LINE_TERMINATOR.test(character)
}

/** The index just after the last line terminator in `text[from, to)`, or `from` when there is none. */
export function lineStartBefore(text: string, from: number, to: number): number {
  for (let index = to - 1; index >= from; index--) {
    if (isLineTerminator(text[index])) {
      return index + 1
    }
  }
  return from
}

/** The whole character before `index` (a surrogate pair counts as one). */
export function characterBefore(text: string, index: number): string | undefined {
  if (index <= 0) {
    return undefined
  }
  const code = text.charCodeAt(index - 1)
  if (index >= 2 && code >= 0xdc00 && code <= 0xdfff) {
    const high = text.charCodeAt(index - 2)
    if (high >= 0xd800 && high <= 0xdbff) {
      return text.slice(index - 2, index)
    }
  }
  return text[index - 1]
}

/** The whole character at `index`. */
export function characterAt(text: string, index: number): string | undefined {
  const code = text.codePointAt(index)
  return code === undefined ? undefined : String.fromCodePoint(code)
}
