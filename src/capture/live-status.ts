import type { WaitConditionKind } from '../scenario/wait-condition.js'
import type { CapturePhase } from './progress.js'

/** How often a running capture hands out its status: often enough for a clock a person watches. */
export const STATUS_INTERVAL_MS = 200

/** The event a capture will send next, and what it waits for before it does. */
export interface DueEvent {
  /** Its index in the scenario's `events`. */
  readonly index: number
  readonly type: 'input' | 'resize' | 'signal'
  /** What the event waits for now: its `after` condition (not yet met), or its `at_ms`. */
  readonly waitsFor: 'condition' | 'time'
  /** The condition its `after` names; null when it has none. */
  readonly condition: { readonly kind: WaitConditionKind; readonly text: string } | null
  readonly atMs: number | null
}

/**
 * A running capture as a person would follow it: where it is, for how long, how much the program has written and
 * which event it waits to send. Unlike progress records (a documented wire format, sent when a count changes), a
 * status is handed out at a steady pace and may grow fields; it never holds the program's output or input.
 */
export interface CaptureStatus {
  readonly phase: CapturePhase
  /** Milliseconds since the capture started. */
  readonly elapsedMs: number
  /** Bytes the program has written to its terminal so far, kept or not. */
  readonly outputBytes: number
  /** How many events the scenario has. */
  readonly eventCount: number
  /** The event due next; null once every event was sent or skipped, or before the command started. */
  readonly dueEvent: DueEvent | null
}

/** What the running capture reads its status from, once its command was launched. */
export interface StatusSources {
  outputBytes(): number
  dueEvent(): DueEvent | undefined
}

/**
 * Hands a status to `deliver` at once on every phase change and every STATUS_INTERVAL_MS between, until stopped.
 * Without `deliver` it does nothing and starts no timer. Its timer never keeps the process alive.
 */
export class LiveStatus {
  readonly #deliver: ((status: CaptureStatus) => void) | undefined
  readonly #elapsedMs: () => number
  readonly #eventCount: number
  #phase: CapturePhase = 'prepare'
  #sources: StatusSources | undefined
  #timer: NodeJS.Timeout | undefined
  #stopped = false

  constructor(
    deliver: ((status: CaptureStatus) => void) | undefined,
    elapsedMs: () => number,
    eventCount: number,
  ) {
    this.#deliver = deliver
    this.#elapsedMs = elapsedMs
    this.#eventCount = eventCount
  }

  /** The capture reached `phase`; `sources` from the launch on. */
  enter(phase: CapturePhase, sources?: StatusSources): void {
    if (this.#deliver === undefined || this.#stopped) {
      return
    }
    this.#phase = phase
    this.#sources = sources ?? this.#sources
    this.#send()
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#send(), STATUS_INTERVAL_MS)
      this.#timer.unref()
    }
  }

  /** No status after this: the capture has ended, or failed. */
  stop(): void {
    this.#stopped = true
    clearInterval(this.#timer)
    this.#timer = undefined
  }

  #send(): void {
    this.#deliver?.({
      phase: this.#phase,
      elapsedMs: this.#elapsedMs(),
      outputBytes: this.#sources?.outputBytes() ?? 0,
      eventCount: this.#eventCount,
      dueEvent: this.#sources?.dueEvent() ?? null,
    })
  }
}
