import type { SequenceClock } from '../evidence/sequence-clock.js'
import type { OmittedChunks, TerminalChunk } from '../evidence/schema.js'
import { decodeChunk, Utf8Chunker } from './utf8-chunker.js'

export interface RawTerminalAccounting {
  readonly budget_bytes: number
  readonly observed_bytes: number
  readonly retained_bytes: number
  readonly observed_chunks: number
  readonly retained_chunks: number
  readonly omitted_chunks: number
  readonly omitted_bytes: number
}

export interface OutputRecorderOptions {
  readonly budgetBytes: number
  readonly journal: SequenceClock
  /** Per-chunk comparison text; returns the input unchanged when no rule applies. */
  readonly normalize: (text: string) => string
  /** Receives each retained chunk's comparison text, in order (the renderer's input). */
  readonly onRetained: (chunk: TerminalChunk) => void
  /** Called once, when the first chunk is omitted. */
  readonly onGap?: () => void
  /**
   * Receives the comparison text of every chunk, retained or not, while `wantsText` says so (an event waits on
   * the output): an omitted chunk is decoded only then.
   */
  readonly onText?: (text: string) => void
  readonly wantsText?: () => boolean
}

const base64Length = (bytes: number): number => 4 * Math.ceil(bytes / 3)

/**
 * Admits PTY output under `limits.output_bytes`. A chunk that does not fit is omitted whole and a later smaller
 * one can still fit. What a chunk costs the budget: its original bytes, plus its base64 copy when it is not
 * valid UTF-8. The accounting counts original bytes only, so retained + omitted = observed. Omitted chunks are
 * counted but never decoded or kept, so memory stays bounded under a flood.
 */
export class OutputRecorder {
  readonly chunks: TerminalChunk[] = []
  readonly omissions: OmittedChunks[] = []
  readonly #options: OutputRecorderOptions
  readonly #chunker = new Utf8Chunker()
  #observedBytes = 0
  #retainedBytes = 0
  /** Retained bytes plus the base64 copies kept with them: what the budget bounds. */
  #chargedBytes = 0
  #observedChunks = 0
  #omittedChunks = 0
  #omittedBytes = 0

  constructor(options: OutputRecorderOptions) {
    this.#options = options
  }

  /** True once any chunk was omitted: rendering past that point would show a screen that never existed. */
  get hasGap(): boolean {
    return this.#omittedChunks > 0
  }

  push(read: Buffer): void {
    const bytes = this.#chunker.push(read)
    if (bytes !== undefined) {
      this.#admit(bytes)
    }
  }

  /** The PTY stream ended; a held-back partial character becomes a last chunk. */
  end(): void {
    const bytes = this.#chunker.end()
    if (bytes !== undefined) {
      this.#admit(bytes)
    }
  }

  get accounting(): RawTerminalAccounting {
    return {
      budget_bytes: this.#options.budgetBytes,
      observed_bytes: this.#observedBytes,
      retained_bytes: this.#retainedBytes,
      observed_chunks: this.#observedChunks,
      retained_chunks: this.chunks.length,
      omitted_chunks: this.#omittedChunks,
      omitted_bytes: this.#omittedBytes,
    }
  }

  #admit(bytes: Buffer): void {
    this.#observedChunks++
    this.#observedBytes += bytes.length
    const remaining = this.#options.budgetBytes - this.#chargedBytes
    if (bytes.length > remaining) {
      this.#omit(bytes)
      return
    }
    const decoded = decodeChunk(bytes)
    const cost = bytes.length + (decoded.valid ? 0 : base64Length(bytes.length))
    if (cost > remaining) {
      this.#omit(bytes)
      return
    }
    this.#chargedBytes += cost
    this.#retainedBytes += bytes.length
    const position = this.#options.journal.record()
    const data = this.#options.normalize(decoded.text)
    const chunk: TerminalChunk = {
      ...position,
      data,
      ...(data === decoded.text ? {} : { raw_data: decoded.text }),
      byte_length: bytes.length,
      ...(decoded.valid ? {} : { bytes_base64: bytes.toString('base64') }),
    }
    this.chunks.push(chunk)
    this.#options.onRetained(chunk)
    this.#options.onText?.(data)
  }

  #omit(bytes: Buffer): void {
    const byteLength = bytes.length
    if (this.#omittedChunks === 0) {
      this.#options.onGap?.()
    }
    this.#omittedChunks++
    this.#omittedBytes += byteLength
    const journal = this.#options.journal
    const last = this.omissions.at(-1)
    if (last !== undefined && journal.isLatest(last.sequence)) {
      last.count++
      last.bytes += byteLength
      last.last_at_ms = journal.nowMs()
    } else {
      const position = journal.record()
      this.omissions.push({ ...position, last_at_ms: position.at_ms, count: 1, bytes: byteLength })
    }
    // Last, as for a retained chunk: a wait this text satisfies dispatches its event right away, and the
    // journal must already hold the omission (and the gap must already stop frames) when it does.
    if (this.#options.onText !== undefined && this.#options.wantsText?.() === true) {
      this.#options.onText(this.#options.normalize(decodeChunk(bytes).text))
    }
  }
}
