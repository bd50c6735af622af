import type { SequenceClock } from '../evidence/sequence-clock.js'
import type { OmittedChunks, TerminalChunk } from '../evidence/schema.js'
import type { StreamRule } from '../normalize/stream-rule.js'
import { normalizeDetached, StreamNormalizer } from '../normalize/stream-normalizer.js'
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
  /**
   * Rules applied to the retained output as one stream after the per-chunk ones (placeholders, redactions,
   * filters); a chunk's comparison text is then filled in once they have decided it.
   */
  readonly streamRules?: readonly StreamRule[]
  /** Receives each retained chunk with its original text, at once (the live terminal's input). */
  readonly onRetained: (chunk: TerminalChunk, original: string) => void
  /** Receives the comparison text of the retained output, in order, once decided (the renderer's input). */
  readonly onComparisonText?: (text: string) => void
  /** Called once, when the first chunk is omitted. */
  readonly onGap?: () => void
  /**
   * Receives the comparison text of the output, retained or not: retained text as `onComparisonText` does,
   * omitted text while `wantsText` says so (an event waits on the output), as it is decoded only then.
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
  /** Undefined when no stream rule applies: each chunk's comparison text is then final when it is read. */
  readonly #stream: StreamNormalizer | undefined
  #observedBytes = 0
  #retainedBytes = 0
  /** Retained bytes plus the base64 copies kept with them: what the budget bounds. */
  #chargedBytes = 0
  #observedChunks = 0
  #omittedChunks = 0
  #omittedBytes = 0

  constructor(options: OutputRecorderOptions) {
    this.#options = options
    const rules = options.streamRules ?? []
    this.#stream =
      rules.length === 0 ? undefined : new StreamNormalizer(rules, (text) => this.#comparisonText(text))
  }

  /** The stream normalizer, when stream rules apply: what it held and replaced. */
  get stream(): StreamNormalizer | undefined {
    return this.#stream
  }

  /**
   * Releases the text the stream rules still hold, as if the output ended here: when output went quiet, or
   * before a frame shows the screen.
   */
  releaseHeld(): void {
    if (this.#stream !== undefined && this.#stream.heldCharacters > 0) {
      this.#stream.releaseAll()
    }
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

  /** The PTY stream ended; a held-back partial character becomes a last chunk, and held text is released. */
  end(): void {
    const bytes = this.#chunker.end()
    if (bytes !== undefined) {
      this.#admit(bytes)
    }
    this.#stream?.finish()
  }

  /**
   * Takes a chunk of `byteLength` bytes as a count alone, and says whether it did: only when the chunk would be
   * omitted without being read (it does not fit the budget, no partial character waits before it, and no event
   * wants omitted text). The caller guarantees that the chunk ends on a whole character. What is recorded is
   * what `push` records for the same bytes.
   */
  countOmitted(byteLength: number): boolean {
    if (
      byteLength <= this.#options.budgetBytes - this.#chargedBytes ||
      this.#chunker.holding ||
      this.#omittedTextListener() !== undefined
    ) {
      return false
    }
    this.#observedChunks++
    this.#observedBytes += byteLength
    this.#omit(byteLength, undefined)
    return true
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
      this.#omit(bytes.length, bytes)
      return
    }
    const decoded = decodeChunk(bytes)
    const cost = bytes.length + (decoded.valid ? 0 : base64Length(bytes.length))
    if (cost > remaining) {
      this.#omit(bytes.length, bytes)
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
    this.#options.onRetained(chunk, decoded.text)
    if (this.#stream === undefined) {
      this.#comparisonText(data)
    } else {
      this.#stream.push(chunk, decoded.text, data)
    }
  }

  #comparisonText(text: string): void {
    this.#options.onComparisonText?.(text)
    this.#options.onText?.(text)
  }

  /** Where omitted output goes when an event waits for text: then even omitted output is read and passed on. */
  #omittedTextListener(): ((text: string) => void) | undefined {
    return this.#options.wantsText?.() === true ? this.#options.onText : undefined
  }

  /** `bytes` is undefined for a chunk taken as a count, which nothing wanted to read. */
  #omit(byteLength: number, bytes: Buffer | undefined): void {
    if (this.#omittedChunks === 0) {
      // What was held before the gap is decided now: the text after it does not continue it.
      this.#stream?.releaseAll()
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
    const onText = this.#omittedTextListener()
    if (bytes !== undefined && onText !== undefined) {
      const text = this.#options.normalize(decodeChunk(bytes).text)
      const rules = this.#options.streamRules ?? []
      onText(rules.length === 0 ? text : normalizeDetached(rules, text))
    }
  }
}
