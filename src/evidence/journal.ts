import type { Evidence } from './schema.js'

/** The kinds of observation the journal holds, each living in its own array of the Evidence. */
export type JournalRecordKind =
  | 'chunk'
  | 'omitted_chunks'
  | 'frame'
  | 'reply'
  | 'interaction'
  | 'sample'
  | 'finalization_signal'
  | 'checkpoint'

/** What kind of observation a journal entry is, and where its record sits in the Evidence. */
export type JournalEntry =
  | {
      readonly kind: JournalRecordKind
      readonly sequence: number
      readonly at_ms: number
      /** Index into the array the record lives in. */
      readonly index: number
    }
  | { readonly kind: 'exit'; readonly sequence: number; readonly at_ms: number }

/**
 * The capture's event journal: every observation in the order REA recorded it. `index` points into the array
 * the record lives in (`terminal.chunks`, `terminal.frames`, …). Whether it is complete is `journal.complete`.
 *
 * @example
 * for (const entry of readJournal(evidence)) if (entry.kind === 'chunk') console.log(evidence.terminal.chunks[entry.index])
 */
export function readJournal(evidence: Evidence): JournalEntry[] {
  const entries: JournalEntry[] = [
    ...evidence.terminal.chunks.map((record, index) => ({
      kind: 'chunk' as const,
      ...position(record),
      index,
    })),
    ...evidence.terminal.omitted_chunks.map((record, index) => ({
      kind: 'omitted_chunks' as const,
      ...position(record),
      index,
    })),
    ...evidence.terminal.frames.map((record, index) => ({
      kind: 'frame' as const,
      ...position(record),
      index,
    })),
    ...(evidence.terminal.replies ?? []).map((record, index) => ({
      kind: 'reply' as const,
      ...position(record),
      index,
    })),
    ...evidence.interactions.map((record, index) => ({
      kind: 'interaction' as const,
      ...position(record),
      index,
    })),
    ...evidence.process.samples.map((record, index) => ({
      kind: 'sample' as const,
      ...position(record),
      index,
    })),
    ...(evidence.exit.finalization?.signals ?? []).map((record, index) => ({
      kind: 'finalization_signal' as const,
      ...position(record),
      index,
    })),
    ...evidence.filesystem.checkpoints.map((record, index) => ({
      kind: 'checkpoint' as const,
      ...position(record),
      index,
    })),
    { kind: 'exit', ...position(evidence.exit) },
  ]
  return entries.sort((a, b) => a.sequence - b.sequence)
}

function position(record: { readonly sequence: number; readonly at_ms: number }) {
  return { sequence: record.sequence, at_ms: record.at_ms }
}
