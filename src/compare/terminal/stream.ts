import type { Evidence } from '../../evidence/schema.js'
import type { Location } from '../comparison-schema.js'

/**
 * The normalized terminal text one capture observed, from the first byte up to its first gap. Chunks before
 * the first omitted run are a contiguous prefix of everything the program wrote; what follows a gap is not
 * compared, because its position in the stream is unknown.
 */
export interface TerminalStream {
  readonly text: string
  /** Every byte the program wrote is in `text`: no chunk omitted and the PTY drained. */
  readonly complete: boolean
  /** Why `complete` is false, for the unknown's detail. */
  readonly incompleteReason: string | null
  /** Start offset (UTF-16 units) of each prefix chunk in `text`, ascending. */
  readonly chunkStarts: readonly number[]
  readonly chunks: Evidence['terminal']['chunks']
}

export function terminalStream(evidence: Evidence): TerminalStream {
  const firstGap = evidence.terminal.omitted_chunks[0]?.sequence ?? Number.POSITIVE_INFINITY
  const chunks = evidence.terminal.chunks.filter((chunk) => chunk.sequence < firstGap)
  const chunkStarts: number[] = []
  let length = 0
  for (const chunk of chunks) {
    chunkStarts.push(length)
    length += chunk.data.length
  }
  const raw = evidence.truncation_details.raw_terminal
  const incompleteReason =
    evidence.disposition === 'failed' || evidence.disposition === 'cancelled'
      ? `the capture was ${evidence.disposition}, so REA ended the command before it finished writing`
      : raw.omitted_chunks > 0
        ? `${raw.omitted_chunks} PTY chunks (${raw.omitted_bytes} bytes) were omitted by limits.output_bytes`
        : raw.drain === 'incomplete'
          ? 'the PTY closed before every byte the root wrote was read (drain incomplete)'
          : null
  return {
    text: chunks.map((chunk) => chunk.data).join(''),
    complete: incompleteReason === null,
    incompleteReason,
    chunkStarts,
    chunks,
  }
}

/** Index of the first differing UTF-16 unit, or -1 when one text is a prefix of the other. */
export function firstMismatch(a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  // Comparing in blocks first keeps this fast on multi-megabyte streams that share a long prefix.
  const block = 4096
  let start = 0
  while (start + block <= length && a.slice(start, start + block) === b.slice(start, start + block)) {
    start += block
  }
  for (let index = start; index < length; index++) {
    if (a.charCodeAt(index) !== b.charCodeAt(index)) {
      // Never split a surrogate pair: point at the character, not at its second half.
      return index > 0 && isLowSurrogate(a.charCodeAt(index)) ? index - 1 : index
    }
  }
  return -1
}

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff

/** Where UTF-16 offset `index` of the stream lies: byte offset, line and column, and each side's chunk. */
export function streamLocation(
  index: number,
  authority: TerminalStream,
  reconstruction: TerminalStream,
): Extract<Location, { kind: 'terminal_stream' }> {
  const text = authority.text.length >= index ? authority.text : reconstruction.text
  // lastIndexOf treats a negative start as 0, which would find a newline at offset 0 itself.
  const lineStart = index === 0 ? 0 : text.lastIndexOf('\n', index - 1) + 1
  const line = countNewlines(text, index) + 1
  return {
    kind: 'terminal_stream',
    byte_offset: Buffer.byteLength(text.slice(0, index)),
    line,
    column: Array.from(text.slice(lineStart, index)).length + 1,
    authority: chunkPosition(authority, index),
    reconstruction: chunkPosition(reconstruction, index),
  }
}

function chunkPosition(stream: TerminalStream, index: number) {
  if (index >= stream.text.length) {
    return null
  }
  let low = 0
  let high = stream.chunkStarts.length - 1
  while (low < high) {
    const middle = (low + high + 1) >> 1
    if ((stream.chunkStarts[middle] as number) <= index) {
      low = middle
    } else {
      high = middle - 1
    }
  }
  const chunk = stream.chunks[low]
  const start = stream.chunkStarts[low]
  if (chunk === undefined || start === undefined) {
    return null
  }
  return {
    chunk_index: low,
    chunk_byte_offset: Buffer.byteLength(chunk.data.slice(0, index - start)),
    sequence: chunk.sequence,
  }
}

/**
 * A short excerpt around `index`, for the difference's values: the text itself, controls and all, so the
 * comparison document holds data (JSON escapes it) and every view quotes it by one rule (`quoteText`); escaped
 * here, a real carriage return and a printed backslash and `r` read the same once the document is escaped again.
 */
export function excerpt(text: string, index: number, radius = 32): string {
  const start = Math.max(0, index - radius)
  const end = Math.min(text.length, index + radius)
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`
}

/** Newlines before offset `end`, found by indexOf rather than a per-character loop. */
export function countNewlines(text: string, end: number): number {
  let count = 0
  for (
    let position = text.indexOf('\n');
    position !== -1 && position < end;
    position = text.indexOf('\n', position + 1)
  ) {
    count++
  }
  return count
}
