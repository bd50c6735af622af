import type { ProcessScenarioInput, WaitCondition } from '../scenario/schema.js'
import { decodeKeystrokes, type Keystroke } from '../screen/keys.js'
import type { SpanFinder } from './avoided-spans.js'
import { chooseWait } from './choose-wait.js'
import { inputContent, isEchoOnly } from './group-keystrokes.js'
import { sensitiveKeystrokes } from './sensitive-input.js'
import type { RecordedTimeline, ScreenSnapshot } from './timeline.js'

/** How a recorded event is timed: a wait on what was shown, or (when nothing could be waited for) a time. */
type Timing = { readonly after: WaitCondition } | { readonly at_ms: number }

interface InputDraft {
  readonly kind: 'input'
  readonly timing: Timing
  readonly sensitive: boolean
  strokes: Keystroke[]
  raw: string
}

interface ResizeDraft {
  readonly kind: 'resize'
  readonly timing: Timing
  columns: number
  rows: number
}

/** An event as the recorder writes it: defaults left out. */
export type RecordedScenarioEvent = NonNullable<ProcessScenarioInput['events']>[number]

/** One event of the recorded scenario; a sensitive input keeps what was typed only in memory, for a replay. */
export interface RecordedEvent {
  readonly event: RecordedScenarioEvent
  /** What was typed, exactly, for a sensitive input: never written to a file. */
  readonly secret?: string
  /** The text written in `data` in place of the secret, for a sensitive input. */
  readonly placeholder?: string
}

export interface RecordedEvents {
  readonly events: RecordedEvent[]
  /** Normalization rules whose spans a wait left out. */
  readonly avoided: ReadonlySet<string>
  /** One sentence per event that could not wait for what was shown, naming the event. */
  readonly notes: string[]
}

/** Written in `data` in place of the Nth secret; the user puts the secret there at replay. */
export function secretPlaceholder(index: number): string {
  return `<secret-${index}>`
}

/**
 * Turns the timeline into scenario events. Keystrokes typed with nothing but their echo drawn between them form
 * one event; an event waits for what the program drew since the previous one (`chooseWait`). When it drew
 * nothing usable, keystrokes join the previous input event (same echo state), consecutive resizes keep the last
 * size, the first keystrokes before any output are sent at launch (`at_ms: 0`), and anything else is sent at
 * the time it happened, with a note (docs/record.md).
 */
export function buildEvents(timeline: RecordedTimeline, findSpans: SpanFinder): RecordedEvents {
  const drafts: (InputDraft | ResizeDraft)[] = []
  const avoided = new Set<string>()
  const notes: string[] = []
  const secret = sensitiveKeystrokes(timeline)
  let eventScreen: ScreenSnapshot = { rows: [], cursorRow: 0, beforeCursor: '' }
  let open: InputDraft | undefined
  let groupOutput = ''
  let anyOutput = false
  // Output since the previous event: whether the program drew anything a screen wait could follow.
  let eventOutput = ''
  for (const entry of timeline.entries) {
    anyOutput ||= entry.output !== ''
    eventOutput += entry.output
    if (entry.kind === 'keystrokes') {
      const strokes = decodeKeystrokes(entry.input).filter((stroke) => stroke.kind !== 'reply')
      if (strokes.length === 0) {
        groupOutput += entry.output
        continue
      }
      const sensitive = secret.has(entry)
      if (
        open !== undefined &&
        open.sensitive === sensitive &&
        isEchoOnly(groupOutput + entry.output, [...open.strokes, ...strokes])
      ) {
        groupOutput += entry.output
        open.strokes.push(...strokes)
        open.raw += entry.input
        continue
      }
      const last = drafts.at(-1)
      // The echo of the previous event's keystrokes is the terminal's drawing, not the program's: a wait on it
      // would be met before the program answered them.
      const onlyEcho = last?.kind === 'input' && isEchoOnly(eventOutput, last.strokes)
      const choice = onlyEcho
        ? undefined
        : chooseWait(eventScreen, entry.screen, entry.quiet_ms, findSpans, eventOutput !== '')
      groupOutput = ''
      if (choice === undefined && last?.kind === 'input' && last.sensitive === sensitive) {
        // Nothing new was drawn since that event: sent with it, the program sees the same keystrokes in order.
        last.strokes.push(...strokes)
        last.raw += entry.input
        open = last
        continue
      }
      for (const label of choice?.avoided ?? []) {
        avoided.add(label)
      }
      open = {
        kind: 'input',
        timing: timingOf(choice?.condition, drafts.length, anyOutput, entry.at_ms, notes),
        sensitive,
        strokes: [...strokes],
        raw: entry.input,
      }
      drafts.push(open)
      eventScreen = entry.screen
      eventOutput = ''
    } else {
      open = undefined
      groupOutput = ''
      const choice = chooseWait(eventScreen, entry.screen, entry.quiet_ms, findSpans, eventOutput !== '')
      const last = drafts.at(-1)
      if (choice === undefined && last?.kind === 'resize') {
        // A window dragged to a new size resizes many times with nothing drawn between: the last size counts.
        last.columns = entry.columns
        last.rows = entry.rows
        continue
      }
      for (const label of choice?.avoided ?? []) {
        avoided.add(label)
      }
      drafts.push({
        kind: 'resize',
        timing: timingOf(choice?.condition, drafts.length, anyOutput, entry.at_ms, notes),
        columns: entry.columns,
        rows: entry.rows,
      })
      eventScreen = entry.screen
      eventOutput = ''
    }
  }
  return { events: eventsOf(drafts), avoided, notes }
}

/** The drafts as scenario events, each sensitive input's text replaced by a numbered placeholder. */
function eventsOf(drafts: readonly (InputDraft | ResizeDraft)[]): RecordedEvent[] {
  let secrets = 0
  return drafts.map((draft): RecordedEvent => {
    if (draft.kind === 'resize') {
      return { event: { type: 'resize', ...draft.timing, columns: draft.columns, rows: draft.rows } }
    }
    if (!draft.sensitive) {
      return {
        event: {
          type: 'input',
          ...draft.timing,
          ...inputContent(draft.strokes, draft.raw),
        },
      }
    }
    // The line's Enter stays visible; what was typed before it is the secret.
    const placeholder = secretPlaceholder(++secrets)
    const enter = draft.raw.endsWith('\r') ? '\r' : ''
    return {
      event: { type: 'input', ...draft.timing, sensitive: true, data: `${placeholder}${enter}` },
      secret: draft.raw,
      placeholder,
    }
  })
}

function timingOf(
  condition: WaitCondition | undefined,
  index: number,
  anyOutput: boolean,
  atMs: number,
  notes: string[],
): Timing {
  if (condition !== undefined) {
    return { after: condition }
  }
  if (index === 0 && !anyOutput) {
    return { at_ms: 0 }
  }
  const time = Math.max(0, Math.round(atMs))
  notes.push(
    `events[${index}] is sent at at_ms ${time}: the program drew nothing before it that a wait could use.`,
  )
  return { at_ms: time }
}
