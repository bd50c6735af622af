import { readJournal } from '../../evidence/journal.js'
import type { Evidence } from '../../evidence/schema.js'
import { stripEscapes } from './strip-escapes.js'

/** A whole line of the normalized terminal stream, with where it starts and when it was complete. */
export interface TerminalLine {
  /** After {@link normalizeLine}; never empty. */
  readonly text: string
  /** Journal sequence of the chunk holding the line's end (its "\n", or its last character at stream end). */
  readonly sequence: number
  /** Position in the stream: orders lines that end in the same chunk. */
  readonly ordinal: number
  /** Index into `terminal.chunks` of the chunk where the line starts. */
  readonly chunk_index: number
  /** UTF-8 byte offset of the line's first character within that chunk's `data`. */
  readonly byte_offset: number
}

export interface TerminalLines {
  readonly lines: TerminalLine[]
  /** Non-blank line fragments cut by an omitted chunk or an incomplete drain: neither matched nor judged. */
  readonly partial_lines: number
}

/**
 * One line's comparison text: escape sequences removed, then trailing carriage returns and spaces (a PTY ends
 * lines with "\r\n"; rendered rows drop trailing spaces the same way). Other characters stay as they are.
 */
export function normalizeLine(raw: string): string {
  return stripEscapes(raw).replace(/[\r ]+$/, '')
}

interface Pending {
  readonly chunkIndex: number
  readonly byteOffset: number
  text: string
  /** The line may have begun inside an omitted chunk. */
  readonly afterGap: boolean
}

/**
 * Splits the retained, normalized terminal stream (`data` of every chunk in journal order) into lines. A run
 * of omitted chunks is a gap: the line it cuts and the first line after it are partial, because part of them
 * was never kept. The text after the last "\n" is a line only if the drain was complete.
 */
export function readTerminalLines(evidence: Evidence): TerminalLines {
  const lines: TerminalLine[] = []
  let partial = 0
  let pending: Pending | undefined
  let gapSeen = false
  let ordinal = 0
  const finish = (line: Pending, sequence: number) => {
    const text = normalizeLine(line.text)
    if (text === '') {
      return
    }
    if (line.afterGap) {
      partial++
      return
    }
    lines.push({
      text,
      sequence,
      ordinal: ordinal++,
      chunk_index: line.chunkIndex,
      byte_offset: line.byteOffset,
    })
  }
  let lastSequence = 0
  for (const entry of readJournal(evidence)) {
    if (entry.kind === 'omitted_chunks') {
      if (pending !== undefined && normalizeLine(pending.text) !== '') {
        partial++
      }
      pending = undefined
      gapSeen = true
      continue
    }
    if (entry.kind !== 'chunk') {
      continue
    }
    const data = evidence.terminal.chunks[entry.index]?.data ?? ''
    lastSequence = entry.sequence
    let start = 0
    let byteOffset = 0
    while (start < data.length) {
      const newline = data.indexOf('\n', start)
      const end = newline === -1 ? data.length : newline
      pending ??= { chunkIndex: entry.index, byteOffset, text: '', afterGap: gapSeen }
      pending.text += data.slice(start, end)
      if (newline === -1) {
        break
      }
      finish(pending, entry.sequence)
      pending = undefined
      gapSeen = false
      byteOffset += Buffer.byteLength(data.slice(start, newline + 1))
      start = newline + 1
    }
  }
  if (pending !== undefined) {
    if (evidence.truncation_details.raw_terminal.drain === 'complete') {
      finish(pending, lastSequence)
    } else if (normalizeLine(pending.text) !== '') {
      partial++
    }
  }
  return { lines, partial_lines: partial }
}
