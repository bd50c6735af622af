import { scanRules, type RuleMatch, type StreamRule } from './stream-rule.js'

/**
 * Undecided text held back beyond this many characters is released as it stands, and the terminal
 * comparison becomes unknown: a rule may have missed a match across the cut.
 */
export const STREAM_HOLD_LIMIT_CHARACTERS = 64 * 1024
/** Released text kept for the rules that look behind a match (a path boundary, a colour sequence). */
const CONTEXT_CHARACTERS = 64

/** A retained chunk whose comparison text the stream normalizer fills in once it is decided. */
export interface NormalizedChunk {
  data: string
  raw_data?: string | undefined
}

interface PendingChunk {
  readonly chunk: NormalizedChunk
  /** The chunk's original text: `raw_data` when the comparison text differs from it. */
  readonly original: string
  /** Where the chunk's per-chunk-normalized text lies in the whole stream of such text. */
  readonly start: number
  readonly end: number
  readonly parts: string[]
}

/** How much the stream rules held back and how often undecided text had to be released. */
export interface StreamHoldAccounting {
  /** The most undecided text held at once, in UTF-16 code units. */
  readonly held_max_characters: number
  /** Releases of undecided text before the rules could decide it: output went quiet, a frame, a gap. */
  readonly early_releases: number
  /** Releases forced by {@link STREAM_HOLD_LIMIT_CHARACTERS}. */
  readonly limit_releases: number
}

/**
 * Applies the stream rules (placeholders, redactions, filters) to the output as one text, whatever the PTY's
 * reads or the program's writes: text is held back only while a rule could still match across its end, and
 * released in order through `onRelease` once decided. Each chunk's comparison text is what was released of
 * it: a replaced span that crosses chunks puts its replacement in the chunk where the span starts, and the
 * chunks it reaches into hold only what follows it (a chunk wholly inside a span holds ""). `raw_data` keeps
 * each chunk's original text.
 */
export class StreamNormalizer {
  readonly #rules: readonly StreamRule[]
  readonly #onRelease: (text: string) => void
  readonly #counts = new Map<string, number>()
  readonly #chunks: PendingChunk[] = []
  #pending = ''
  #pendingStart = 0
  #context = ''
  #heldMax = 0
  #earlyReleases = 0
  #limitReleases = 0

  constructor(rules: readonly StreamRule[], onRelease: (text: string) => void) {
    this.#rules = rules
    this.#onRelease = onRelease
  }

  /** Undecided text waiting for more output. */
  get heldCharacters(): number {
    return this.#pending.length
  }

  /** Takes one chunk: `text` is its per-chunk comparison text, `original` what the program wrote. */
  push(chunk: NormalizedChunk, original: string, text: string): void {
    const start = this.#pendingStart + this.#pending.length
    this.#chunks.push({ chunk, original, start, end: start + text.length, parts: [] })
    this.#pending += text
    this.#release(false)
    if (this.#pending.length > STREAM_HOLD_LIMIT_CHARACTERS) {
      this.#limitReleases++
      this.#release(true)
    }
    this.#heldMax = Math.max(this.#heldMax, this.#pending.length)
  }

  /** Releases everything held as if the stream ended here: output went quiet, a frame needs it, a gap. */
  releaseAll(): void {
    if (this.#pending.length > 0) {
      this.#earlyReleases++
    }
    this.#release(true)
  }

  /** The stream ended: what is held is decided now (the end bounds every match), not released early. */
  finish(): void {
    this.#release(true)
  }

  /** Replacements made so far, by rule label (`root`, `durations`, `redactions[0]`). */
  replacements(label: string): number {
    return this.#counts.get(label) ?? 0
  }

  get accounting(): StreamHoldAccounting {
    return {
      held_max_characters: this.#heldMax,
      early_releases: this.#earlyReleases,
      limit_releases: this.#limitReleases,
    }
  }

  #release(final: boolean): void {
    const base = this.#context.length
    const text = this.#context + this.#pending
    const limit = final
      ? text.length
      : Math.min(...this.#rules.map((rule) => rule.undecidedFrom(text, base)), text.length)
    const released: string[] = []
    const placer = new ChunkPlacer(this.#chunks, this.#pendingStart - base)
    const end =
      limit <= base
        ? base
        : scanRules(this.#rules, text, base, limit, (from, to, match: RuleMatch | undefined) => {
            if (match === undefined) {
              const piece = text.slice(from, to)
              released.push(piece)
              placer.placeText(from, to, piece)
            } else {
              released.push(match.replacement)
              placer.placeReplacement(from, match.replacement)
              this.#counts.set(match.label, (this.#counts.get(match.label) ?? 0) + 1)
            }
          })
    this.#pending = text.slice(end)
    this.#pendingStart += end - base
    this.#context = text.slice(Math.max(0, end - CONTEXT_CHARACTERS), end)
    this.#finishChunks()
    if (released.length > 0) {
      this.#onRelease(released.join(''))
    }
  }

  /** Chunks wholly released get their comparison text; `raw_data` only where it differs from the original. */
  #finishChunks(): void {
    while (this.#chunks.length > 0) {
      const first = this.#chunks[0] as PendingChunk
      if (first.end > this.#pendingStart) {
        return
      }
      this.#chunks.shift()
      const data = first.parts.length === 1 ? (first.parts[0] as string) : first.parts.join('')
      first.chunk.data = data
      if (data === first.original) {
        delete first.chunk.raw_data
      } else {
        first.chunk.raw_data = first.original
      }
    }
  }
}

/** Puts released pieces into the chunks they came from; positions are in the scanned text's coordinates. */
class ChunkPlacer {
  readonly #chunks: readonly PendingChunk[]
  /** Added to a scanned-text position to get a stream position. */
  readonly #offset: number
  #index = 0

  constructor(chunks: readonly PendingChunk[], offset: number) {
    this.#chunks = chunks
    this.#offset = offset
  }

  placeText(from: number, to: number, text: string): void {
    let position = from + this.#offset
    const end = to + this.#offset
    while (position < end) {
      const chunk = this.#chunkAt(position)
      const pieceEnd = Math.min(end, chunk.end)
      chunk.parts.push(
        position === from + this.#offset && pieceEnd === end
          ? text
          : text.slice(position - from - this.#offset, pieceEnd - from - this.#offset),
      )
      position = pieceEnd
    }
  }

  placeReplacement(from: number, replacement: string): void {
    this.#chunkAt(from + this.#offset).parts.push(replacement)
  }

  /** The chunk holding stream position `position`; chunks of no text are passed over. */
  #chunkAt(position: number): PendingChunk {
    for (;;) {
      const chunk = this.#chunks[this.#index]
      if (chunk === undefined) {
        throw new Error(`internal error: stream position ${position} is in no pending chunk`)
      }
      if (position < chunk.end) {
        return chunk
      }
      this.#index++
    }
  }
}

/** Normalizes text on its own, as a whole stream: for output kept from no chunk (waits on dropped output). */
export function normalizeDetached(rules: readonly StreamRule[], text: string): string {
  const released: string[] = []
  scanRules(rules, text, 0, text.length, (from, to, match) => {
    released.push(match === undefined ? text.slice(from, to) : match.replacement)
  })
  return released.join('')
}
