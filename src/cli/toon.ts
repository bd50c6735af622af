import type * as Toon from '@toon-format/toon'
import { ReaError } from '../errors.js'

/**
 * TOON as REA writes it. The encoder quotes and escapes C0 controls (`\n`, `\uXXXX`) but writes DEL, C1 controls
 * and invisible format characters raw, where a terminal would act on them; TOON has `\uXXXX` for every BMP
 * character, so REA writes those escaped too (the document stays valid TOON: it decodes to the same data).
 * TOON has no escape for characters beyond the BMP, which must appear as they are: the invisible ones among
 * them (tag characters, a few format controls) cannot drive a terminal but hide text, so a document holding one
 * is not printed on a terminal; --json escapes every character.
 */

// Characters the encoder leaves raw that a terminal acts on or does not show (BMP ones escape as \uXXXX).
const RAW_INVISIBLE = /[\u007f-\u009f\u2028\u2029\p{Cf}]/gu
const INVISIBLE_TEST = new RegExp(RAW_INVISIBLE.source, 'u')

export interface ToonDocument {
  readonly text: string
  /** Where the first character TOON cannot escape is (`U+E0041 at terminal.chunks[2].data`), if any. */
  readonly unescapable: string | null
}

export function encodeToon(toon: typeof Toon, value: unknown): ToonDocument {
  let unescapable: string | null = null
  const escape = (text: string, where: readonly (string | number)[]): string =>
    toon.escapeString(text).replace(RAW_INVISIBLE, (character) => {
      const code = character.codePointAt(0) ?? 0
      if (code > 0xffff) {
        unescapable ??= `U+${code.toString(16).toUpperCase()} at ${where.join('.') || 'the top level'}`
        return character
      }
      return `\\u${code.toString(16).padStart(4, '0')}`
    })
  const encoded = toon.encode(JSON.parse(JSON.stringify(value)) as Toon.JsonValue, {
    replacer: (key, entry, path) => {
      if (INVISIBLE_TEST.test(key)) {
        // A key with such a character is always quoted (unquoted keys are ASCII): escaped below, located here.
        escape(key, path)
      }
      return typeof entry === 'string' && INVISIBLE_TEST.test(entry)
        ? toon.rawString(`"${escape(entry, path)}"`)
        : entry
    },
  })
  // Values were written by the replacer; what is left raw sits in quoted keys, where \uXXXX is valid.
  const text = encoded.replace(RAW_INVISIBLE, (character) => {
    const code = character.codePointAt(0) ?? 0
    return code > 0xffff ? character : `\\u${code.toString(16).padStart(4, '0')}`
  })
  return { text: `${text}\n`, unescapable }
}

/** The refusal when a TOON document cannot be shown safely on the terminal it would go to. */
export function toonUnsafeOnTerminal(unescapable: string): ReaError {
  return new ReaError(
    'OUTPUT_FAILED',
    `The TOON document was not printed: it holds an invisible character TOON has no escape for (${unescapable}), and stdout is a terminal.`,
    { hint: 'Use --json (JSON escapes every character), or write TOON to a file with --output.' },
  )
}
