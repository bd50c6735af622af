import type { Comparison } from '../compare/comparison-schema.js'
import type { Evidence, TerminalFrame } from '../evidence/schema.js'
import { excerpt, firstMismatch } from '../compare/terminal/stream.js'
import { castEvents } from '../export/cast-events.js'
import { quoteText } from '../internal/escape-controls.js'
import {
  PAGE_DATA_FORMAT,
  type CheckpointStatus,
  type PageCheckpoint,
  type PageData,
  type PageFrame,
  type PageSide,
  type SideLabel,
} from './page-data.js'

/**
 * What the page's script needs, built from Evidence and nothing else: per side its recording (the same events
 * an asciicast export holds, so a sensitive value is only ever a row of `*`) and its checkpoint frames; and per
 * checkpoint whether the two screens are the same. The page embeds it as JSON and renders from it lazily.
 */

export function buildPageData(
  sides: readonly { readonly label: SideLabel; readonly evidence: Evidence }[],
  comparison: Comparison | null,
): PageData {
  const pageSides = sides.map(({ label, evidence }) => pageSide(label, evidence))
  const count = Math.max(0, ...pageSides.map((side) => side.frames.length))
  const checkpoints: PageCheckpoint[] = []
  for (let index = 0; index < count; index++) {
    checkpoints.push(checkpointOf(index, pageSides, comparison))
  }
  const located = comparison?.first_divergence?.location
  const firstDifferent = checkpoints.findIndex((checkpoint) => checkpoint.status === 'different')
  const initial =
    located?.kind === 'terminal_frame' && located.checkpoint < count
      ? located.checkpoint
      : firstDifferent !== -1
        ? firstDifferent
        : Math.max(0, count - 1)
  return { format: PAGE_DATA_FORMAT, sides: pageSides, checkpoints, initial_checkpoint: initial }
}

function pageSide(label: SideLabel, evidence: Evidence): PageSide {
  const contract = evidence.commitments.comparison_contract.value
  return {
    label,
    terminal: contract.terminal,
    stream: castEvents(evidence).map((event) => [event.at_ms, event.code, event.data] as const),
    frames: evidence.terminal.frames.filter((frame) => frame.checkpoint).map(pageFrame),
  }
}

function pageFrame(frame: TerminalFrame): PageFrame {
  const label = frameLabel(frame)
  return frame.status === 'retained'
    ? {
        label,
        at_ms: frame.at_ms,
        status: 'retained',
        reason: null,
        columns: frame.columns,
        rows: frame.rows,
        cursor: [frame.cursor.row, frame.cursor.column],
        state: frame.serialized_state,
      }
    : {
        label,
        at_ms: frame.at_ms,
        status: 'omitted',
        reason: frame.reason,
        columns: 0,
        rows: 0,
        cursor: [0, 0],
        state: '',
      }
}

export function frameLabel(frame: Pick<TerminalFrame, 'trigger' | 'event_index'>): string {
  switch (frame.trigger) {
    case 'before_event':
      return `before event ${frame.event_index ?? '?'}`
    case 'after_resize':
      return `after the resize (event ${frame.event_index ?? '?'})`
    case 'final':
      return 'final screen'
    case 'quiet':
      return 'quiet'
  }
}

function checkpointOf(
  index: number,
  sides: readonly PageSide[],
  comparison: Comparison | null,
): PageCheckpoint {
  const frames = sides.map((side) => side.frames[index])
  const label = `${index} · ${frames.find((frame) => frame !== undefined)?.label ?? ''}`
  const difference = comparison?.dimensions.terminal.differences.find(
    (candidate) => candidate.location.kind === 'terminal_frame' && candidate.location.checkpoint === index,
  )
  const location = difference?.location
  const cell =
    location?.kind === 'terminal_frame' && location.row !== null && location.column !== null
      ? ([location.row, location.column] as const)
      : null
  const status = checkpointStatus(frames)
  // At the screens level two different recordings of the same screen are equal: the comparison says which
  // checkpoints differ (each pair's first difference is listed, unless the list was cut).
  const byScreens =
    comparison?.terminal_level === 'screens' &&
    comparison.dimensions.terminal.differences_omitted === 0 &&
    status === 'different' &&
    frames[0]?.label === frames[1]?.label
  return {
    label,
    status: byScreens && difference === undefined ? 'equal' : status,
    detail: difference?.summary ?? null,
    cell,
    spellings: spellingsOf(frames),
  }
}

function spellingsOf(frames: readonly (PageFrame | undefined)[]): PageCheckpoint['spellings'] {
  const [a, b] = frames
  if (a?.status !== 'retained' || b?.status !== 'retained' || a.state === b.state) {
    return null
  }
  const mismatch = firstMismatch(a.state, b.state)
  const index = mismatch === -1 ? Math.min(a.state.length, b.state.length) : mismatch
  return [quoteText(excerpt(a.state, index, 16)), quoteText(excerpt(b.state, index, 16))]
}

function checkpointStatus(frames: readonly (PageFrame | undefined)[]): CheckpointStatus {
  const [a, b] = frames
  if (frames.length === 1) {
    return 'single'
  }
  if (a === undefined || b === undefined) {
    return 'one_side'
  }
  if (a.status === 'omitted' || b.status === 'omitted') {
    return 'unknown'
  }
  if (a.label !== b.label) {
    return 'different'
  }
  const same =
    a.columns === b.columns &&
    a.rows === b.rows &&
    a.cursor[0] === b.cursor[0] &&
    a.cursor[1] === b.cursor[1] &&
    a.state === b.state
  return same ? 'equal' : 'different'
}
