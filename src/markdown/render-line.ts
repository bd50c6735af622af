import { parseExpectedLine } from './expected-line.js'

/**
 * A line the terminal showed, written in the block notation so that it reads back as that same text: what the
 * diff shows as actual and what `--update` writes. Only what the notation would read otherwise is escaped: a
 * leading `$`, `>`, `?` or `...`, a `{` that would start typed input or a key, a `\` that would escape.
 */
export function notationOf(actual: string): string {
  let written = ''
  for (let index = 0; index < actual.length; index++) {
    const character = actual[index] as string
    if (character === '{' && (startsInput(actual.slice(index)) || written.endsWith('\\'))) {
      written += '\\{'
    } else {
      written += character
    }
  }
  if (/^(?:\$( |$)|>( |$)|\? \S+\s*$|\.\.\.\s*$|\\[$>?.\\])/.test(written)) {
    written = `\\${written}`
  }
  return written
}

function startsInput(rest: string): boolean {
  // An escape where none was needed (a later `{Bad}` makes the line an error) still reads as `{`: harmless.
  const parsed = parseExpectedLine(rest)
  return (
    parsed.kind !== 'line' || parsed.segments[0]?.kind !== 'text' || !parsed.segments[0].text.startsWith('{')
  )
}
