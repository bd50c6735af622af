import { isUtf8 } from 'node:buffer'
import { utf8SequenceLength } from '../internal/utf8-lead.js'

export interface DecodedChunk {
  /** Original bytes of the chunk. */
  readonly bytes: Buffer
  /** UTF-8 text; invalid bytes became U+FFFD. */
  readonly text: string
  /** False when the bytes are not valid UTF-8, so `text` alone cannot reproduce them. */
  readonly valid: boolean
}

/**
 * Re-cuts PTY reads at character boundaries: a multi-byte character split across two reads is held back (at
 * most 3 bytes) and recorded whole with the next read. Every recorded chunk then decodes on its own, and the
 * concatenated chunk bytes are exactly the PTY stream.
 */
export class Utf8Chunker {
  #carry: Buffer | undefined

  /** True while the start of a character is held back for the next read. */
  get holding(): boolean {
    return this.#carry !== undefined
  }

  /** Returns the next chunk's bytes, or undefined when the read held only part of a character. */
  push(read: Buffer): Buffer | undefined {
    const bytes = this.#carry === undefined ? read : Buffer.concat([this.#carry, read])
    const tail = incompleteTailLength(bytes)
    this.#carry = tail > 0 ? Buffer.from(bytes.subarray(bytes.length - tail)) : undefined
    return tail === bytes.length ? undefined : tail > 0 ? bytes.subarray(0, bytes.length - tail) : bytes
  }

  /** The stream ended: bytes still held back form a last, invalid chunk. */
  end(): Buffer | undefined {
    const carry = this.#carry
    this.#carry = undefined
    return carry
  }
}

export function decodeChunk(bytes: Buffer): DecodedChunk {
  return { bytes, text: bytes.toString('utf8'), valid: isUtf8(bytes) }
}

/**
 * Length of a trailing sequence that is a valid prefix of a multi-byte character (1–3 bytes), else 0.
 * Second-byte ranges follow RFC 3629, so an invalid sequence is never held back.
 */
export function incompleteTailLength(bytes: Buffer): number {
  const length = bytes.length
  for (let back = 1; back <= Math.min(3, length); back++) {
    const lead = bytes[length - back] as number
    if ((lead & 0xc0) === 0x80) {
      continue
    }
    // An ASCII byte (length 1) or an invalid lead (0) completes or ends the tail either way.
    const needed = utf8SequenceLength(lead)
    if (needed <= back) {
      return 0
    }
    const second = bytes[length - back + 1]
    if (second !== undefined && !secondByteAllowed(lead, second)) {
      return 0
    }
    return back
  }
  return 0
}

function secondByteAllowed(lead: number, byte: number): boolean {
  switch (lead) {
    case 0xe0:
      return byte >= 0xa0 && byte <= 0xbf
    case 0xed:
      return byte >= 0x80 && byte <= 0x9f
    case 0xf0:
      return byte >= 0x90 && byte <= 0xbf
    case 0xf4:
      return byte >= 0x80 && byte <= 0x8f
    default:
      return byte >= 0x80 && byte <= 0xbf
  }
}
