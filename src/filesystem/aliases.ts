import { isUtf8 } from 'node:buffer'
import { utf8SequenceLength } from '../internal/utf8-lead.js'

/** The alias of the Nth observation root, as used in entry keys: `root_0`, `root_1`, … */
export function rootAlias(index: number): string {
  return `root_${index}`
}

/** The key of a root itself. */
export function rootKey(index: number): string {
  return `${rootAlias(index)}:.`
}

/**
 * The key of an entry below a root: `root_N:` plus the path relative to the root with `/` separators.
 * Names are bytes on Linux; a name that is not valid UTF-8 keeps its bytes through an escape (see
 * {@link escapeName}), so two different names never share a key.
 */
export function entryKey(index: number, relativeSegments: readonly string[]): string {
  return `${rootAlias(index)}:${relativeSegments.join('/')}`
}

/**
 * One path segment as text, reversibly: `%` becomes `%25`, and each byte of an invalid UTF-8 sequence becomes
 * `%XX` (uppercase hex). A valid UTF-8 name without `%` is unchanged. {@link unescapeName} restores the bytes.
 */
export function escapeName(name: Buffer): string {
  if (isUtf8(name)) {
    const text = name.toString('utf8')
    return text.includes('%') ? text.replaceAll('%', '%25') : text
  }
  let text = ''
  let at = 0
  while (at < name.length) {
    const length = validSequenceLength(name, at)
    if (length === 0) {
      text += `%${(name[at] as number).toString(16).toUpperCase().padStart(2, '0')}`
      at += 1
    } else {
      text += name
        .subarray(at, at + length)
        .toString('utf8')
        .replaceAll('%', '%25')
      at += length
    }
  }
  return text
}

export function unescapeName(text: string): Buffer {
  const parts: Buffer[] = []
  let literal = ''
  for (let at = 0; at < text.length; at++) {
    if (text[at] === '%' && /^[0-9A-F]{2}$/.test(text.slice(at + 1, at + 3))) {
      parts.push(Buffer.from(literal, 'utf8'), Buffer.from([Number.parseInt(text.slice(at + 1, at + 3), 16)]))
      literal = ''
      at += 2
    } else {
      literal += text.charAt(at)
    }
  }
  parts.push(Buffer.from(literal, 'utf8'))
  return Buffer.concat(parts)
}

/** Length of the valid UTF-8 sequence starting at `at`, or 0 when the byte there does not start one. */
function validSequenceLength(bytes: Buffer, at: number): number {
  const length = utf8SequenceLength(bytes[at] as number)
  if (length === 0 || at + length > bytes.length) {
    return 0
  }
  return isUtf8(bytes.subarray(at, at + length)) ? length : 0
}
