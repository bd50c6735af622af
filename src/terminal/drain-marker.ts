import { randomUUID } from 'node:crypto'

/**
 * An APC string (which terminals ignore) with a random body in characters that no output post-processing
 * (ONLCR, OLCUC) rewrites. Written into the PTY slave after the root exited, it arrives on the master after
 * everything the root wrote, because the PTY queue is first-in first-out.
 */
export function createDrainMarker(): Buffer {
  return Buffer.from(`\x1b_REA-DRAIN-${randomUUID().toUpperCase()}\x1b\\`, 'latin1')
}

/**
 * Removes the drain marker from the byte stream, also when it is split across reads. Until it is armed it
 * passes everything through; once armed it holds back only a trailing partial marker.
 */
export class DrainMarkerFilter {
  readonly #marker: Buffer
  #armed = false
  #found = false
  #held: Buffer | undefined

  constructor(marker: Buffer) {
    this.#marker = marker
  }

  get found(): boolean {
    return this.#found
  }

  /** True while the end of the last read may begin the marker and is held back. */
  get holding(): boolean {
    return this.#held !== undefined
  }

  arm(): void {
    this.#armed = true
  }

  /** Returns the bytes to pass on (possibly empty) and whether the marker was completed by this read. */
  push(chunk: Buffer): { readonly data: Buffer; readonly found: boolean } {
    if (!this.#armed || this.#found) {
      return { data: chunk, found: false }
    }
    const combined = this.#held === undefined ? chunk : Buffer.concat([this.#held, chunk])
    this.#held = undefined
    const at = combined.indexOf(this.#marker)
    if (at >= 0) {
      this.#found = true
      const data = Buffer.concat([combined.subarray(0, at), combined.subarray(at + this.#marker.length)])
      return { data, found: true }
    }
    const partial = this.#partialMarkerStart(combined)
    this.#held = partial < combined.length ? Buffer.from(combined.subarray(partial)) : undefined
    return { data: combined.subarray(0, partial), found: false }
  }

  /** Releases held bytes: they were not the marker after all (the stream ended first). */
  flush(): Buffer {
    const held = this.#held ?? Buffer.alloc(0)
    this.#held = undefined
    return held
  }

  /** Index where a trailing proper prefix of the marker begins, or `bytes.length` when there is none. */
  #partialMarkerStart(bytes: Buffer): number {
    const first = this.#marker[0]
    for (let at = Math.max(0, bytes.length - this.#marker.length + 1); at < bytes.length; at++) {
      if (bytes[at] === first && bytes.subarray(at).equals(this.#marker.subarray(0, bytes.length - at))) {
        return at
      }
    }
    return bytes.length
  }
}
