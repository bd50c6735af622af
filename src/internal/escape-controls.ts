/**
 * The one rule for text REA shows a person that came from outside (a program's output, a file's name or
 * content, a test name, an argument): whatever could drive the reader's terminal or hide what the text says is
 * shown as a visible escape. ESC is `\e`, CR `\r`, other C0 controls and DEL `\xNN`; C1 controls, invisible
 * format characters (bidi controls, zero-width characters, the BOM, soft hyphen, tag characters), line and
 * paragraph separators and lone surrogates are `\uNNNN` (`\u{NNNNN}` beyond the BMP). Raw, an ESC could retitle
 * the terminal or move its cursor over earlier lines; a bidi override reorders what is shown; a zero-width
 * space makes two different names look the same.
 *
 * Three ways in, one mapping:
 * - {@link quoteText}: a single-line value, in double quotes; `\`, `"`, newline and tab escaped too, so two
 *   different values never read the same and a value cannot fake a line of the message.
 * - {@link escapeText}: a block of untrusted text (a screen, a diff, an excerpt): newline and tab kept, `\`
 *   doubled, so a literal backslash never reads as an escape.
 * - {@link escapeControlCharacters}: the safety net for a whole message that already quotes its values:
 *   controls made visible, newline, tab and backslash kept (it can run over text that holds escapes).
 */

// Matching control and format characters is the point of this module.
/* eslint-disable no-control-regex */
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}\u2028\u2029]|\p{Cs}/gu
const INVISIBLE_OR_BACKSLASH = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}\u2028\u2029\\]|\p{Cs}/gu
const QUOTED = /[\u0000-\u001f\u007f-\u009f\p{Cf}\u2028\u2029\\"]|\p{Cs}/gu
/* eslint-enable no-control-regex */

const NAMED: Readonly<Record<string, string>> = {
  '\u001b': '\\e',
  '\r': '\\r',
  '\n': '\\n',
  '\t': '\\t',
  '\\': '\\\\',
  '"': '\\"',
}

/** One character as a person sees it: its name, or its code. */
function visible(character: string): string {
  const named = NAMED[character]
  if (named !== undefined) {
    return named
  }
  const code = character.codePointAt(0) ?? 0
  if (code < 0x80) {
    return `\\x${code.toString(16).padStart(2, '0')}`
  }
  // A C1 control is a code point, not a byte: `\x9b` would read as the byte of an invalid UTF-8 sequence.
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/**
 * A single-line value in double quotes, everything that could drive a terminal or hide a difference escaped,
 * including `\`, `"`, newline and tab: `"a\nb"` and `"a\\nb"` are two different values.
 *
 * @example
 * quoteText('root_0:a\nb.txt') // '"root_0:a\\nb.txt"'
 */
export function quoteText(text: string): string {
  return `"${text.replace(QUOTED, visible)}"`
}

/**
 * A block of untrusted text for people (a screen, a diff, an excerpt): newlines and tabs stay, every other
 * control and invisible character is escaped, and a literal backslash is doubled so it never reads as an escape.
 *
 * @example
 * escapeText('C:\\dir\r\n') // 'C:\\\\dir\\r\n'
 */
export function escapeText(text: string): string {
  return text.replace(INVISIBLE_OR_BACKSLASH, visible)
}

/**
 * Makes C0 controls, DEL, C1 controls and invisible format characters visible (`\e`, `\r`, `\x07`, `\u009b`,
 * `\u202e`), keeping newline, tab and backslash: the last line of defence for a whole message whose values are
 * already quoted (with {@link quoteText}), applied again without harm. Text quoted from a file, an argument or
 * a program's output is shown in someone's terminal; raw, an ESC in it could retitle that terminal, move its
 * cursor or hide the rest of a message.
 *
 * @example
 * escapeControlCharacters('\u001b]0;PWNED\u0007{') // '\\e]0;PWNED\\x07{'
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(INVISIBLE, visible)
}

/** A JSON value for people: like JSON, with every string (and key) quoted by {@link quoteText}. */
export function quoteJson(value: unknown): string {
  if (typeof value === 'string') {
    return quoteText(value)
  }
  if (Array.isArray(value)) {
    return `[${value.map(quoteJson).join(',')}]`
  }
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .map(([key, entry]) => `${quoteText(key)}:${quoteJson(entry)}`)
      .join(',')}}`
  }
  // Numbers, booleans and null; JSON.stringify gives undefined only for what no JSON value holds.
  const text: unknown = JSON.stringify(value)
  return typeof text === 'string' ? text : String(value)
}

// eslint-disable-next-line no-control-regex -- the characters a name must not show raw
const NEEDS_QUOTES = /[\u0000-\u001f\u007f-\u009f\p{Cf}\u2028\u2029\\"]|\p{Cs}/u

/**
 * A name (a path, a field, a test name) in a message: as it is when nothing in it needs an escape, else quoted
 * by {@link quoteText}, so a newline in a file name cannot fake a line of the message and a quoted form is
 * never mistaken for a plain one (a name holding `"` is quoted too).
 *
 * @example
 * showName('root_0:notes.txt') // 'root_0:notes.txt'
 * showName('root_0:a\nb') // '"root_0:a\\nb"'
 */
export function showName(name: string): string {
  return NEEDS_QUOTES.test(name) ? quoteText(name) : name
}

/**
 * A command line for people: each word shown by {@link showName}, and quoted too where it is empty or holds a
 * space, so the words can be told apart. One rule for every command line REA prints (headers, summaries, pages,
 * pictures).
 *
 * @example
 * showCommandLine(['printf', 'a\nb', 'two words']) // 'printf "a\\nb" "two words"'
 */
export function showCommandLine(words: readonly string[]): string {
  return words.map((word) => (word === '' || /\s/u.test(word) ? quoteText(word) : showName(word))).join(' ')
}
