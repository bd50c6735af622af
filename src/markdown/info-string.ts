/**
 * The words of an info string (```` ```console cols=60 env.NAME="a b" ````) or of the front matter's `rea:` value:
 * blank-separated, each a flag (`ignore`) or `key=value`, a value either bare or in double quotes with `\"` and
 * `\\` inside. One grammar for both places, so an option can be copied from a block to the front matter as it is.
 */

export interface OptionWord {
  readonly key: string
  /** Null for a flag. */
  readonly value: string | null
}

export type WordsResult = { readonly words: readonly OptionWord[] } | { readonly error: string }

export function splitOptionWords(text: string): WordsResult {
  const words: OptionWord[] = []
  let index = 0
  while (index < text.length) {
    if (/\s/.test(text[index] as string)) {
      index++
      continue
    }
    const keyMatch = /^[^\s=]+/.exec(text.slice(index))
    const key = keyMatch?.[0] ?? ''
    if (key === '') {
      return { error: `an option needs a name before "=" (at "${text.slice(index, index + 20)}")` }
    }
    index += key.length
    if (text[index] !== '=') {
      words.push({ key, value: null })
      continue
    }
    index++
    const value = readValue(text, index)
    if ('error' in value) {
      return { error: `${key}: ${value.error}` }
    }
    words.push({ key, value: value.value })
    index = value.end
  }
  return { words }
}

function readValue(
  text: string,
  start: number,
): { readonly value: string; readonly end: number } | { readonly error: string } {
  if (text[start] !== '"') {
    const bare = /^[^\s"]*/.exec(text.slice(start))?.[0] ?? ''
    if (text[start + bare.length] === '"') {
      return { error: 'a value with a quote in it is written whole in quotes, with \\" for the quote' }
    }
    return { value: bare, end: start + bare.length }
  }
  let value = ''
  for (let index = start + 1; index < text.length; index++) {
    const character = text[index] as string
    if (character === '\\' && (text[index + 1] === '"' || text[index + 1] === '\\')) {
      value += text[index + 1] as string
      index++
    } else if (character === '"') {
      if (index + 1 < text.length && !/\s/.test(text[index + 1] as string)) {
        return { error: 'a quoted value must be followed by a blank or the end of the line' }
      }
      return { value, end: index + 1 }
    } else {
      value += character
    }
  }
  return { error: 'the quoted value is never closed (a `"` is missing)' }
}
