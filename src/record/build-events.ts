import type { StreamRule } from '../normalize/stream-rule.js'
import type { ProcessScenarioInput, WaitCondition } from '../scenario/schema.js'
import type { Keystroke } from '../screen/keys.js'
import { blankDrawnScreen } from '../terminal/live-terminal.js'
import { spanFinder, type SpanFinder } from './avoided-spans.js'
import { chooseWait, cleanSegment, RECORDED_QUIET_MS } from './choose-wait.js'
import { splitFields, type Field } from './fields.js'
import { inputContent, isEchoOnly } from './group-keystrokes.js'
import { judgeField, type FieldJudgement } from './judge-field.js'
import { promptAsFirstDrawn } from './prompt-text.js'
import { NO_SECRET_RULES, type SecretRules } from './prompt-rules.js'
import type { RecordedTimeline, ScreenSnapshot } from './timeline.js'
import { TypedLine } from './typed-line.js'

/** How a recorded event is timed: a wait on what was shown, or (when nothing could be waited for) a time. */
type Timing = { readonly after: WaitCondition } | { readonly at_ms: number }

/** A secret shorter than this would hide ordinary letters from every wait. */
const MIN_AVOIDED_SECRET_CHARACTERS = 3

/** An event as the recorder writes it: defaults left out. */
export type RecordedScenarioEvent = NonNullable<ProcessScenarioInput['events']>[number]

/** The field an input event answers, as the recorder judged it. */
export interface RecordedField {
  readonly judgement: FieldJudgement
  /** The prompt as the program first drew it (prompt-text.ts), or undefined when none was found. */
  readonly prompt: string | undefined
}

/** One event of the recorded scenario; a sensitive input keeps what was typed only in memory, for a replay. */
export interface RecordedEvent {
  readonly event: RecordedScenarioEvent
  /** What a replay types for a sensitive input (the line as edited, and the key that ended it): never written. */
  readonly secret?: string
  /** The text written in `data` in place of the secret, for a sensitive input. */
  readonly placeholder?: string
  /** For an input event: the fields it answers (more than one when keys were typed ahead). */
  readonly fields?: readonly RecordedField[]
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

interface JudgedField {
  readonly field: Field
  readonly recorded: RecordedField
  readonly strokes: Keystroke[]
  readonly raw: string
  /** The line as edited and the key that ended it: what a replay types for a secret. */
  readonly typed: string
  readonly terminator: string
}

interface InputDraft {
  readonly kind: 'input'
  readonly timing: Timing
  readonly fields: JudgedField[]
}

interface ResizeDraft {
  readonly kind: 'resize'
  readonly timing: Timing
  columns: number
  rows: number
}

/**
 * Turns the timeline into scenario events: one input event per field (splitFields), which waits for the field's
 * prompt as first drawn, and is sensitive when the field was judged secret (judgeField; `rules` name prompts the
 * person decided about). A field typed before the program drew anything new joins the previous input event when
 * both are clear, consecutive resizes keep the last size, the first keys before any output go at launch
 * (`at_ms: 0`), and anything else is sent at the time it happened, with a note (docs/record.md).
 */
export function buildEvents(
  timeline: RecordedTimeline,
  rules: readonly StreamRule[],
  secretRules: SecretRules = NO_SECRET_RULES,
): RecordedEvents & { readonly secrets: readonly string[] } {
  const units = splitFields(timeline)
  const judged = new Map<Field, JudgedField>()
  for (const unit of units) {
    if (unit.kind === 'field') {
      judged.set(unit, judge(unit, timeline.columns, secretRules))
    }
  }
  const secrets = [...judged.values()]
    .filter(({ recorded }) => recorded.judgement.secret)
    .map(({ typed, terminator }) => typed.slice(0, typed.length - terminator.length))
    .filter((secret) => Array.from(secret).length >= MIN_AVOIDED_SECRET_CHARACTERS)
  const findSpans = spanFinder(rules, () => secrets)
  const drafts: (InputDraft | ResizeDraft)[] = []
  const avoided = new Set<string>()
  const notes: string[] = []
  let eventScreen: ScreenSnapshot = blankDrawnScreen()
  let anyOutput = false
  for (const unit of units) {
    anyOutput ||= unit.outputBefore !== ''
    const last = drafts.at(-1)
    // The echo of the previous event's keys is the terminal's drawing, not the program's answer to them.
    const drew =
      unit.outputBefore !== '' &&
      !(
        last?.kind === 'input' &&
        isEchoOnly(
          unit.outputBefore,
          last.fields.flatMap((field) => field.strokes),
        )
      )
    if (unit.kind === 'resize') {
      const choice = chooseWait(eventScreen, unit.entry.screen, unit.entry.quiet_ms, findSpans, drew)
      if (choice === undefined && last?.kind === 'resize') {
        // A window dragged to a new size resizes many times with nothing drawn between: the last size counts.
        last.columns = unit.entry.columns
        last.rows = unit.entry.rows
        continue
      }
      choice?.avoided.forEach((label) => avoided.add(label))
      drafts.push({
        kind: 'resize',
        timing: timingOf(choice?.condition, drafts.length, anyOutput, unit.entry.at_ms, notes),
        columns: unit.entry.columns,
        rows: unit.entry.rows,
      })
      eventScreen = unit.entry.screen
      continue
    }
    const field = judged.get(unit) as JudgedField
    const first = unit.keys[0] as Field['keys'][number]
    if (!drew && last?.kind === 'input' && !isSecret(field) && !last.fields.some(isSecret)) {
      // Nothing new was drawn since that event: sent with it, the program sees the same keys in order.
      last.fields.push(field)
      continue
    }
    const wait = drew ? promptWait(field, first.entry.quiet_ms, findSpans, avoided) : undefined
    const choice =
      wait === undefined && drew
        ? chooseWait(eventScreen, first.entry.screen, first.entry.quiet_ms, findSpans, drew)
        : undefined
    choice?.avoided.forEach((label) => avoided.add(label))
    drafts.push({
      kind: 'input',
      timing: timingOf(wait ?? choice?.condition, drafts.length, anyOutput, first.entry.at_ms, notes),
      fields: [field],
    })
    eventScreen = first.entry.screen
  }
  return { events: eventsOf(drafts), avoided, notes, secrets }
}

function isSecret(field: JudgedField): boolean {
  return field.recorded.judgement.secret
}

function judge(field: Field, columns: number, rules: SecretRules): JudgedField {
  const prompt = promptAsFirstDrawn(field)
  const strokes = field.keys.flatMap((key) => key.strokes)
  const line = new TypedLine()
  strokes.forEach((stroke) => line.apply(stroke))
  const lastStroke = strokes.at(-1)
  const terminator =
    lastStroke === undefined
      ? ''
      : lastStroke.kind === 'text'
        ? (/[\r\n]$/.exec(lastStroke.text)?.[0] ?? '')
        : lastStroke.kind === 'key'
          ? (TERMINATOR_BYTES[lastStroke.name] ?? '')
          : ''
  const named = prompt ?? (field.keys[0] as Field['keys'][number]).entry.screen.beforeCursor
  const judgement: FieldJudgement = rules.secret.some((rule) => rule.matches(named))
    ? { secret: true, reason: 'named_secret' }
    : rules.notSecret.some((rule) => rule.matches(named))
      ? { secret: false, reason: 'named_not_secret' }
      : judgeField(field, columns)
  return {
    field,
    recorded: { judgement, prompt },
    strokes,
    raw: field.keys.map((key) => key.entry.input).join(''),
    typed: line.text + terminator,
    terminator,
  }
}

const TERMINATOR_BYTES: Readonly<Record<string, string>> = {
  'Ctrl+C': '\u0003',
  'Ctrl+D': '\u0004',
  Escape: '\u001b',
}

/** A wait for the field's prompt as first drawn, without what normalization replaces or a secret. */
function promptWait(
  field: JudgedField,
  quietMs: number,
  findSpans: SpanFinder,
  avoided: Set<string>,
): WaitCondition | undefined {
  const prompt = field.recorded.prompt
  if (prompt === undefined) {
    return undefined
  }
  const spans = findSpans(prompt)
  const text = cleanSegment(prompt, spans)
  if (text === undefined) {
    return undefined
  }
  spans.filter((span) => span.label !== 'sensitive').forEach((span) => avoided.add(span.label))
  return { screen: text, ...(quietMs >= RECORDED_QUIET_MS ? { quiet_ms: RECORDED_QUIET_MS } : {}) }
}

/** The drafts as scenario events, each secret field's text replaced by a numbered placeholder. */
function eventsOf(drafts: readonly (InputDraft | ResizeDraft)[]): RecordedEvent[] {
  let secrets = 0
  return drafts.map((draft): RecordedEvent => {
    if (draft.kind === 'resize') {
      return { event: { type: 'resize', ...draft.timing, columns: draft.columns, rows: draft.rows } }
    }
    const fields = draft.fields.map((field) => field.recorded)
    const [only] = draft.fields
    if (only !== undefined && isSecret(only)) {
      const placeholder = secretPlaceholder(++secrets)
      return {
        event: { type: 'input', ...draft.timing, sensitive: true, data: `${placeholder}${only.terminator}` },
        secret: only.typed,
        placeholder,
        fields,
      }
    }
    return {
      event: {
        type: 'input',
        ...draft.timing,
        ...inputContent(
          draft.fields.flatMap((field) => field.strokes),
          draft.fields.map((field) => field.raw).join(''),
        ),
      },
      fields,
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
