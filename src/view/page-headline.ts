import type { Comparison, Difference, Location } from '../compare/comparison-schema.js'
import { describeDifference } from '../compare/format-comparison.js'
import type { TraceResult } from '../compare/trace/index.js'
import { frameLabel } from './page-model.js'

type FrameLocation = Extract<Location, { kind: 'terminal_frame' }>

/** What a checkpoint difference is, in words that need no location (the headline gives it first). */
const FRAME_WORDS: Readonly<Record<string, string>> = {
  'terminal.frames.lines': 'the screens differ',
  'terminal.frames.cursor': 'the cursor is elsewhere',
  'terminal.frames.size': 'the screens have different sizes',
  'terminal.frames.serialized_state': 'the same text with different attributes or modes',
}

/**
 * The page's one-line headline. People look at screens first, so a terminal divergence leads with where it shows
 * (checkpoint, row and column), then says what differs, then where it starts in the stream (byte, line and
 * column; the chunks are in the comparison document), each once.
 */
export function pageHeadline(comparison: Comparison | null, trace: TraceResult | null): string | null {
  const first = comparison?.first_divergence
  if (comparison != null && first != null) {
    const frame = comparison.dimensions.terminal.differences.find(
      (difference): difference is Difference & { location: FrameLocation } =>
        difference.location.kind === 'terminal_frame',
    )
    if (first.dimension === 'terminal' && frame !== undefined) {
      const stream = first.location.kind === 'terminal_stream' ? first.location : null
      return [
        `${checkpointWhere(frame.location)}: ${FRAME_WORDS[frame.field] ?? frame.summary}`,
        stream === null
          ? ''
          : `; in the output stream from byte ${stream.byte_offset} (line ${stream.line}, column ${stream.column})`,
      ].join('')
    }
    return describeDifference(first)
  }
  const unknown = comparison?.unknowns[0]
  if (unknown !== undefined) {
    return `${unknown.dimension} unknown (${unknown.reason}): ${unknown.detail}`
  }
  return trace?.violations[0]?.detail ?? trace?.unknown_reasons[0]?.detail ?? null
}

/** `Checkpoint 2 (before event 1), row 4, column 6`. */
function checkpointWhere(location: FrameLocation): string {
  const label = frameLabel({ trigger: location.trigger, event_index: location.event_index })
  const cell =
    location.row === null
      ? ''
      : `, row ${location.row}${location.column === null ? '' : `, column ${location.column}`}`
  return `Checkpoint ${location.checkpoint} (${label})${cell}`
}
