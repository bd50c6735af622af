import type { SensitiveValue } from '../normalize/sensitive-values.js'

/** Masks beyond this many are counted but their locations are not listed. */
export const MAX_REDACTION_LOCATIONS = 1000
const MASK_BYTE = 0x2a // '*'

/** Where a sensitive value was masked: its byte offset in the PTY stream. Never the value itself. */
export interface RedactionLocation {
  readonly event_index: number
  readonly stream_byte_offset: number
  readonly byte_length: number
}

/**
 * Masks sensitive values in the PTY byte stream before anything is decoded, recorded or rendered, so `data`,
 * `raw_data`, exact bytes and frames all carry the mask. Each byte of a match becomes `*`, keeping byte
 * offsets and lengths. A value split across reads (an echo often arrives a character at a time) is caught by
 * holding back a trailing partial match until the next read decides it.
 */
export class SensitiveRedactor {
  readonly locations: RedactionLocation[] = []
  readonly #values: readonly SensitiveValue[]
  readonly #longest: number
  #held: Buffer | undefined
  #streamOffset = 0
  #count = 0

  constructor(values: readonly SensitiveValue[]) {
    this.#values = values
    this.#longest = Math.max(0, ...values.map((value) => value.bytes.length))
  }

  get active(): boolean {
    return this.#values.length > 0
  }

  /** Matches masked so far, including those past the location limit. */
  get count(): number {
    return this.#count
  }

  /** Returns the bytes that can be passed on now, masked; a trailing partial match waits for the next read. */
  push(read: Buffer): Buffer {
    if (!this.active) {
      return read
    }
    const bytes = this.#held === undefined ? Buffer.from(read) : Buffer.concat([this.#held, read])
    this.#held = undefined
    this.#mask(bytes)
    const keep = this.#partialMatchStart(bytes)
    if (keep < bytes.length) {
      this.#held = bytes.subarray(keep)
    }
    const passed = bytes.subarray(0, keep)
    this.#streamOffset += passed.length
    return passed
  }

  /** The stream ended: a held partial match was not the value after all. */
  flush(): Buffer {
    const held = this.#held ?? Buffer.alloc(0)
    this.#held = undefined
    this.#streamOffset += held.length
    return held
  }

  #mask(bytes: Buffer): void {
    for (const value of this.#values) {
      for (
        let at = bytes.indexOf(value.bytes);
        at >= 0;
        at = bytes.indexOf(value.bytes, at + value.bytes.length)
      ) {
        bytes.fill(MASK_BYTE, at, at + value.bytes.length)
        this.#count++
        if (this.locations.length < MAX_REDACTION_LOCATIONS) {
          this.locations.push({
            event_index: value.eventIndex,
            stream_byte_offset: this.#streamOffset + at,
            byte_length: value.bytes.length,
          })
        }
      }
    }
  }

  /** Where a trailing proper prefix of some value begins, or `bytes.length` when none does. */
  #partialMatchStart(bytes: Buffer): number {
    for (let at = Math.max(0, bytes.length - this.#longest + 1); at < bytes.length; at++) {
      const tail = bytes.subarray(at)
      if (
        this.#values.some(
          (value) => tail.length < value.bytes.length && value.bytes.subarray(0, tail.length).equals(tail),
        )
      ) {
        return at
      }
    }
    return bytes.length
  }
}
