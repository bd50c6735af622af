import { ReaError } from '../errors.js'
import { readJournal } from '../evidence/journal.js'
import type { Evidence } from '../evidence/schema.js'
import { quoteText } from '../internal/escape-controls.js'
import { widthModelOf } from '../scenario/terminal-model.js'
import { replayScreen, replaySteps, type ReplayedScreen, type ReplayStep } from '../screen/screen-replay.js'

/**
 * A moment of a capture whose screen can be drawn: its final screen, the screen as an event was about to be
 * dispatched, or the screen at a time from launch.
 */
export type ScreenMoment =
  | { readonly kind: 'final' }
  | { readonly kind: 'event'; readonly index: number }
  | { readonly kind: 'ms'; readonly ms: number }

/** How `--at` is written; what a usage error repeats. */
export const SCREEN_MOMENT_SYNTAX =
  'final, event <n> (an event index, from 0) or <ms> (milliseconds from launch)'

/**
 * Reads `final`, `event 3` or `1500` (milliseconds from launch). Anything else is INVALID_ARGUMENTS naming the
 * three forms.
 */
export function parseScreenMoment(text: string): ScreenMoment {
  const trimmed = text.trim()
  if (trimmed === 'final') {
    return { kind: 'final' }
  }
  const event = /^event\s+(\d{1,9})$/.exec(trimmed)
  if (event !== null) {
    return { kind: 'event', index: Number(event[1]) }
  }
  if (/^\d{1,12}$/.test(trimmed)) {
    return { kind: 'ms', ms: Number(trimmed) }
  }
  throw new ReaError('INVALID_ARGUMENTS', `--at must be ${SCREEN_MOMENT_SYNTAX}: got ${quoteText(text)}.`)
}

/** A screen drawn at a moment, with what to call it. */
export interface MomentScreen {
  readonly screen: ReplayedScreen
  readonly cursorVisible: boolean
  /** `final screen`, `before event 2 (at 350 ms)`, `at 1500 ms`. */
  readonly label: string
}

/**
 * The screen of a capture at a moment. The final screen is the capture's final frame, redrawn from its serialized
 * state; any other moment is redrawn from the output the program wrote up to it (and the resizes dispatched by
 * then), in journal order, in a headless terminal of the capture's size and width model. A moment the capture
 * cannot show (its final frame was not rendered, output before it was omitted by limits, an event that was never
 * dispatched) is INVALID_ARGUMENTS saying which.
 */
export function screenAtMoment(evidence: Evidence, moment: ScreenMoment): MomentScreen {
  const terminal = evidence.commitments.comparison_contract.value.terminal
  const start = {
    columns: terminal.columns,
    rows: terminal.rows,
    scrollback: terminal.scrollback,
    widthModel: widthModelOf(terminal),
  }
  if (moment.kind === 'final') {
    const frame = evidence.terminal.frames.findLast((each) => each.trigger === 'final')
    if (frame?.status !== 'retained') {
      throw new ReaError(
        'INVALID_ARGUMENTS',
        `This capture has no final screen to draw: ${frame === undefined ? 'it recorded no final frame' : `its final frame was not rendered (${frame.reason})`}.`,
        { hint: 'Draw an earlier moment with --at <ms> or --at event <n>.' },
      )
    }
    const screen = replayScreen({
      ...start,
      columns: frame.columns,
      rows: frame.rows,
      state: frame.serialized_state,
    })
    return { screen, cursorVisible: frame.cursor.visible ?? true, label: 'final screen' }
  }
  const until = momentTime(evidence, moment)
  const steps = stepsUntil(evidence, until)
  const label =
    moment.kind === 'event' ? `before event ${moment.index} (at ${until.at_ms} ms)` : `at ${moment.ms} ms`
  const screen = replaySteps(start, steps)
  return { screen, cursorVisible: screen.cursorVisible, label }
}

/** Where in the journal a moment falls: entries before `seq` (or at or before `at_ms`) are drawn. */
interface JournalPoint {
  readonly at_ms: number
  /** The first journal entry not drawn; undefined to cut by time alone. */
  readonly seq?: number
}

function momentTime(evidence: Evidence, moment: Exclude<ScreenMoment, { kind: 'final' }>): JournalPoint {
  if (moment.kind === 'ms') {
    return { at_ms: moment.ms }
  }
  const events = evidence.commitments.comparison_contract.value.events.length
  const interaction = evidence.interactions.find(
    (each) => each.event_index === moment.index && each.outcome === 'dispatched',
  )
  if (interaction === undefined) {
    throw new ReaError(
      'INVALID_ARGUMENTS',
      moment.index >= events
        ? `--at event ${moment.index}: the scenario has ${events} event${events === 1 ? '' : 's'} (indexes from 0).`
        : `--at event ${moment.index}: that event was never dispatched, so there is no moment to draw.`,
    )
  }
  return { at_ms: interaction.at_ms, seq: interaction.sequence }
}

function stepsUntil(evidence: Evidence, point: JournalPoint): ReplayStep[] {
  const events = evidence.commitments.comparison_contract.value.events
  const steps: ReplayStep[] = []
  for (const entry of readJournal(evidence)) {
    if (point.seq !== undefined ? entry.sequence >= point.seq : entry.at_ms > point.at_ms) {
      break
    }
    if (entry.kind === 'omitted_chunks') {
      throw new ReaError(
        'INVALID_ARGUMENTS',
        `Output the program wrote before that moment was not kept (omitted by limits.output_bytes at ${entry.at_ms} ms), so the screen then is unknown.`,
        {
          hint: 'Draw the final screen with --at final, or capture again with a larger limits.output_bytes.',
        },
      )
    }
    if (entry.kind === 'chunk') {
      const chunk = evidence.terminal.chunks[entry.index]
      if (chunk !== undefined) {
        steps.push({ text: chunkText(chunk) })
      }
    } else if (entry.kind === 'interaction') {
      const interaction = evidence.interactions[entry.index]
      const event = events[interaction?.event_index ?? -1]
      if (interaction?.outcome === 'dispatched' && event?.type === 'resize') {
        steps.push({ resize: [event.columns, event.rows] })
      }
    }
  }
  return steps
}

/** What the terminal was given: the original bytes, not the comparison text. */
function chunkText(chunk: Evidence['terminal']['chunks'][number]): string {
  return chunk.bytes_base64 !== undefined
    ? Buffer.from(chunk.bytes_base64, 'base64').toString('utf8')
    : (chunk.raw_data ?? chunk.data)
}
