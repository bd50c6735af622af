import type { Interaction } from '../evidence/schema.js'
import type { SequenceClock } from '../evidence/sequence-clock.js'
import { skipEnding, WAIT_TIMED_OUT, type SkipCause, type SkipEnding } from '../evidence/skip-cause.js'
import { setLongTimeout } from '../internal/long-timer.js'
import type { MonotonicClock } from '../internal/monotonic-clock.js'
import type { StartIdentity } from '../process/identity.js'
import { deliverSignal, type SignalOutcome } from '../process/signal.js'
import type { ScenarioEvent } from '../scenario/schema.js'
import type { FrameRecorder } from '../terminal/frame-recorder.js'
import type { PtySession } from '../terminal/pty-backend.js'
import type { LiveTerminal } from '../terminal/live-terminal.js'
import type { Renderer } from '../screen/renderer.js'
import { EventWait, type WaitEnd } from './event-wait.js'
import type { DueEvent } from './live-status.js'
import { conditionOf } from '../scenario/wait-condition.js'
import type { WaitSettle } from '../evidence/input-waits.js'
import { EVENT_DISPATCH, type EventDispatchModel } from '../scenario/event-dispatch.js'
import { errorMessage } from '../internal/error-message.js'
import type { OutputWatch } from './output-watch.js'
import type { InputExchange } from './input-exchange.js'
import { typedInteraction, typeInput, type Typed } from './type-input.js'
import type { JournalPosition } from '../evidence/sequence-clock.js'

/** How events are skipped when the target exits on its own: until REA ends the run, that is the cause. */
const TARGET_EXITED = skipEnding('exited', { timeout_ms: 0, idle_timeout_ms: null })

export interface SchedulerContext {
  readonly events: readonly ScenarioEvent[]
  readonly clock: MonotonicClock
  readonly journal: SequenceClock
  readonly frames: FrameRecorder
  /** The frame renderer (resized with the PTY). */
  readonly renderer: Renderer
  /** The live terminal: screen waits, the cursor-key mode for keys; undefined when nothing needs it. */
  readonly live: LiveTerminal | undefined
  readonly session: PtySession
  /** The root's identity for signal events, or why there is none (binding failed). */
  readonly rootIdentity: () => Promise<StartIdentity | { readonly unavailable: string }>
  /** True once REA has seen the root gone: later events are skipped. */
  readonly rootExited: () => boolean
  /** The output as events wait on it; the scheduler sets the wait of the event due. */
  readonly output: OutputWatch
  /** The terminal's exchange with the program, which input waits for before it is written. */
  readonly exchange: InputExchange
  /** How input goes in and waits are met (the scenario's `event_dispatch`). */
  readonly dispatch: EventDispatchModel
  /** An interaction was recorded; `count` is how many there are now. */
  readonly onInteraction: (count: number) => void
}

/**
 * Dispatches the scenario's events strictly in list order. An event is due when the one before it was
 * dispatched or skipped, its `at_ms` (from launch, on the capture's monotonic clock) has come, and, with
 * `after`, what it waits for has been shown; a wait that runs out skips the event (`wait_timed_out`) and the
 * next one waits for its own condition. Before each event a checkpoint frame is requested (its sequence
 * number fixes what it shows, so dispatch does not wait for rendering); a resize also gets a checkpoint frame
 * after it. Events keep being dispatched while a finalization interval runs; those still pending when the run
 * ends are recorded as skipped.
 */
export class EventScheduler {
  readonly #context: SchedulerContext
  readonly #interactions: Interaction[] = []
  readonly #pending = new Set<Promise<void>>()
  #next = 0
  #metAtMs: number | undefined
  /** How the current event's wait settled, when it settled by default. */
  #settle: WaitSettle | undefined
  #cancelTimer: (() => void) | undefined
  /** An input event is being typed (it waits for the exchange, or types its keys one by one). */
  #sending = false
  #finished = false
  /** Set once REA ends the run (a deadline or cancellation): later skips name it, not the target. */
  #ending: SkipEnding | undefined

  constructor(context: SchedulerContext) {
    this.#context = context
  }

  get dispatchedCount(): number {
    return this.#interactions.length
  }

  /** The event due next and what it waits for now; undefined once none is left. */
  get dueEvent(): DueEvent | undefined {
    const event = this.#context.events[this.#next]
    if (event === undefined || this.#finished) {
      return undefined
    }
    return {
      index: this.#next,
      type: event.type,
      waitsFor: this.#context.output.wait === undefined ? 'time' : 'condition',
      condition: event.after === undefined ? null : conditionOf(event.after),
      atMs: event.at_ms ?? null,
    }
  }

  /** Whether the run has ended for the scheduler: nothing more is dispatched. */
  get finished(): boolean {
    return this.#finished
  }

  start(): void {
    this.#begin()
  }

  /**
   * REA is ending the run (a deadline fired, or the capture was cancelled): events still dispatched meanwhile (a
   * finalization interval) go ahead, and an event skipped from now on names this as its cause.
   */
  noteEnding(ending: SkipEnding): void {
    this.#ending ??= ending
  }

  /**
   * The run ended: every event not dispatched yet is recorded as skipped, now, naming who ended it (REA, if it
   * was ending the run, else `ending`).
   */
  finish(ending: SkipEnding): void {
    this.noteEnding(ending)
    this.#finished = true
    this.#cancelTimer?.()
    this.#context.output.wait?.dispose()
    this.#context.output.wait = undefined
    const current = this.#next
    if (this.#sending) {
      // An input event is being typed; it records itself (dispatched if typing had begun, else skipped).
      this.#next++
    }
    while (this.#next < this.#context.events.length) {
      const index = this.#next++
      const waited = this.#context.events[index]?.after !== undefined
      const wait = waited ? { met_at_ms: index === current ? (this.#metAtMs ?? null) : null } : undefined
      this.#skipAtEnd(index, wait)
    }
  }

  /** Every interaction, in journal order, once pending signal deliveries have settled. */
  async interactions(): Promise<Interaction[]> {
    await Promise.all(this.#pending)
    return [...this.#interactions].sort((a, b) => a.sequence - b.sequence)
  }

  /** The current event starts waiting: for its condition, else for its time. */
  #begin(): void {
    const event = this.#context.events[this.#next]
    this.#metAtMs = undefined
    this.#settle = undefined
    if (event === undefined || this.#finished) {
      return
    }
    if (event.after === undefined) {
      this.#atTime(event)
      return
    }
    const sources = {
      clock: this.#context.clock,
      settles: this.#context.dispatch === EVENT_DISPATCH,
      screen: this.#context.live,
      lastOutputMs: () => this.#context.output.lastOutputMs,
    }
    this.#context.output.wait = new EventWait(event.after, sources, (end) => this.#waited(event, end))
  }

  #waited(event: ScenarioEvent, end: WaitEnd): void {
    this.#context.output.wait = undefined
    if (this.#finished) {
      return
    }
    if (!end.met) {
      const index = this.#next++
      this.#skip(index, WAIT_TIMED_OUT, 'wait_timed_out', {
        met_at_ms: null,
        ...(end.detail === undefined ? {} : { detail: end.detail }),
      })
      this.#begin()
      return
    }
    this.#metAtMs = end.metAtMs
    this.#settle = end.settle
    this.#atTime(event)
  }

  /** Dispatches at the event's at_ms, or at once when it has come (or the event has none). */
  #atTime(event: ScenarioEvent): void {
    const delayMs = (event.at_ms ?? 0) - this.#context.clock.preciseMs()
    if (delayMs <= 0) {
      this.#dispatchCurrent()
      return
    }
    this.#cancelTimer = setLongTimeout(() => this.#dispatchCurrent(), delayMs)
  }

  #dispatchCurrent(): void {
    this.#cancelTimer = undefined
    const index = this.#next
    const event = this.#context.events[index]
    if (event === undefined || this.#finished) {
      return
    }
    const settle = this.#settle
    const wait =
      event.after === undefined
        ? undefined
        : { met_at_ms: this.#metAtMs ?? null, ...(settle === undefined ? {} : { settle }) }
    if (this.#context.rootExited()) {
      this.#next++
      const ending = this.#ending ?? TARGET_EXITED
      this.#skip(index, ending.sentence, ending.cause, wait)
      this.#begin()
      return
    }
    const { session, frames, renderer, live } = this.#context
    if (event.type === 'input') {
      this.#type(index, event, wait)
      return
    }
    void frames.record({ trigger: 'before_event', eventIndex: index })
    switch (event.type) {
      case 'resize':
        this.#attempt(index, event, wait, () => {
          session.resize(event.columns, event.rows)
          renderer.resize(event.columns, event.rows)
          live?.resize(event.columns, event.rows)
        })
        void frames.record({ trigger: 'after_resize', eventIndex: index })
        break
      case 'signal':
        this.#signal(index, event, wait)
        break
    }
    this.#next++
    this.#begin()
  }

  /**
   * Types an input event (see `typeInput`): after the terminal's exchange with the program, `data` in one write,
   * keys one by one. The checkpoint frame and the event's place in the journal are taken right before the first
   * byte goes in; the record is added once typing is over. The next event starts waiting only then.
   */
  #type(index: number, event: Extract<ScenarioEvent, { type: 'input' }>, wait: Interaction['wait']): void {
    const { session, live, clock, frames, journal, exchange } = this.#context
    this.#sending = true
    let position: JournalPosition | undefined
    const input = event.keys === undefined ? { data: event.data ?? '' } : { keys: event.keys }
    const typing = typeInput(input, {
      session,
      live,
      exchange,
      clock,
      ended: () => this.#finished,
      immediate: this.#context.dispatch !== EVENT_DISPATCH,
      beforeFirstWrite: () => {
        void frames.record({ trigger: 'before_event', eventIndex: index })
        position = journal.record()
      },
    })
    const done = (typed: Typed): void => {
      this.#sending = false
      if (position === undefined) {
        this.#skipAtEnd(index, wait)
      } else {
        this.#push(typedInteraction(position, index, event, wait, typed))
      }
      if (!this.#finished) {
        this.#next++
        this.#begin()
      }
    }
    void typing.then(done, (error: unknown) =>
      done({ started: false, bytes: 0, keysWritten: 0, exchange: undefined, failure: errorMessage(error) }),
    )
  }

  #attempt(index: number, event: ScenarioEvent, wait: Interaction['wait'], action: () => void): void {
    const position = this.#context.journal.record()
    let failure: string | undefined
    try {
      action()
    } catch (error) {
      failure = errorMessage(error)
    }
    this.#push({
      ...position,
      event_index: index,
      type: event.type,
      scheduled_at_ms: event.at_ms ?? null,
      outcome: failure === undefined ? 'dispatched' : 'failed',
      ...(failure === undefined ? {} : { reason: failure }),
      ...(wait === undefined ? {} : { wait }),
    })
  }

  /** A signal event goes to the root only, through the identity-checked, bounded delivery. */
  #signal(index: number, event: Extract<ScenarioEvent, { type: 'signal' }>, wait: Interaction['wait']): void {
    const position = this.#context.journal.record()
    const delivery = this.#context
      .rootIdentity()
      .then((identity): Promise<SignalOutcome> | SignalOutcome =>
        'unavailable' in identity
          ? { delivery: 'unverified', reason: `identity unavailable: ${identity.unavailable}` }
          : deliverSignal(identity, event.signal),
      )
    const pending = delivery.then((outcome) => {
      const skipped = outcome.delivery === 'gone' || outcome.delivery === 'identity-changed'
      const ending = this.#ending ?? TARGET_EXITED
      this.#push({
        ...position,
        event_index: index,
        type: 'signal',
        scheduled_at_ms: event.at_ms ?? null,
        outcome: outcome.delivery === 'signaled' ? 'dispatched' : skipped ? 'skipped' : 'failed',
        delivery: outcome.delivery,
        ...(outcome.reason === undefined
          ? skipped
            ? { reason: ending.sentence }
            : {}
          : { reason: outcome.reason }),
        ...(skipped ? { cause: ending.cause } : {}),
        ...(wait === undefined ? {} : { wait }),
      })
    })
    this.#pending.add(pending)
    void pending.finally(() => this.#pending.delete(pending))
  }

  /** An event the run ended before it was due, skipped for whoever ended the run. */
  #skipAtEnd(index: number, wait: Interaction['wait']): void {
    const ending = this.#ending ?? TARGET_EXITED
    this.#skip(index, `${ending.sentence} before the event was due`, ending.cause, wait)
  }

  #skip(index: number, reason: string, cause: SkipCause, wait: Interaction['wait']): void {
    const event = this.#context.events[index]
    if (event === undefined) {
      return
    }
    this.#push({
      ...this.#context.journal.record(),
      event_index: index,
      type: event.type,
      scheduled_at_ms: event.at_ms ?? null,
      outcome: 'skipped',
      reason,
      cause,
      ...(wait === undefined ? {} : { wait }),
    })
  }

  #push(interaction: Interaction): void {
    this.#interactions.push(interaction)
    this.#context.onInteraction(this.#interactions.length)
  }
}
