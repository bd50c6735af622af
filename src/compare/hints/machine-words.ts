import { placeholderContextOf } from '../../evidence/machine-values.js'
import type { Evidence } from '../../evidence/schema.js'
import { resolvePlaceholders } from '../../normalize/placeholder-values.js'
import { MIN_PLACEHOLDER_CHARACTERS } from '../../normalize/placeholders.js'
import { varyingSpan } from './varying-text.js'

/** The placeholders that stand for a name of the machine rather than a path. */
export type WordPlaceholder = 'user' | 'hostname'
export const WORD_PLACEHOLDERS: readonly WordPlaceholder[] = ['user', 'hostname']

/** The user and host name each side's text would hold, as far as they can be known. */
export type MachineWords = Readonly<
  Record<'authority' | 'reconstruction', Readonly<Partial<Record<WordPlaceholder, string>>>>
>

const WORD = /^[\p{L}\p{N}_.-]+$/u

/**
 * Each side's user and host name. A capture made in this process knows its own; a capture read from a file is
 * resolved with this machine's, which is right only when it was recorded here. An authority recorded elsewhere
 * does not hold its author's names (a stored authority holds tokens, or the raw text only), so where a differing
 * span on one side is exactly that side's known name, the span facing it on the other side is taken as the other
 * machine's: `built by alice` against `built by ci-bob`, where `ci-bob` is this machine's user.
 */
export function machineWords(
  authority: Evidence,
  reconstruction: Evidence,
  texts: { readonly authority: string; readonly reconstruction: string },
): MachineWords {
  const known = { authority: resolvedWords(authority), reconstruction: resolvedWords(reconstruction) }
  const linesA = texts.authority.split('\n')
  const linesB = texts.reconstruction.split('\n')
  if (linesA.length !== linesB.length) {
    return known
  }
  const inferred = { authority: { ...known.authority }, reconstruction: { ...known.reconstruction } }
  linesA.forEach((lineA, index) => {
    const lineB = linesB[index] as string
    if (lineA === lineB) {
      return
    }
    const span = varyingSpan(lineA, lineB, index + 1)
    for (const name of WORD_PLACEHOLDERS) {
      if (span.second === known.reconstruction[name] && isName(span.first)) {
        inferred.authority[name] = span.first
      }
      if (span.first === known.authority[name] && isName(span.second)) {
        inferred.reconstruction[name] = span.second
      }
    }
  })
  return inferred
}

function resolvedWords(evidence: Evidence): Partial<Record<WordPlaceholder, string>> {
  const resolved = resolvePlaceholders(WORD_PLACEHOLDERS, placeholderContextOf(evidence))
  return Object.fromEntries(resolved.spellings.map((spelling) => [spelling.name, spelling.text]))
}

function isName(text: string): boolean {
  return text.length >= MIN_PLACEHOLDER_CHARACTERS && WORD.test(text)
}
