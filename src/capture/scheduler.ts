import type { Interaction } from '../evidence/schema.js'
import { setLongTimeout } from '../internal/long-timer.js'
import type { MonotonicClock } from '../internal/monotonic-clock.js'
import type { StartIdentity } from '../process/identity.js'
import { deliverSignal, type SignalOutcome } from '../process/signal.js'
import type { ScenarioEvent } from '../scenario/schema.js'
import type { FrameRecorder } from '../terminal/frame-recorder.js'
import type { PtySession } from '../terminal/pty-backend.js'
import type { Renderer } from '../terminal/renderer.js'
import type { SequenceClock } from '../evidence/sequence-clock.js'

export interface SchedulerContext {
  readonly events: readonly ScenarioEvent[]
  readonly clock: MonotonicClock
  readonly journal: SequenceClock
  readonly frames: FrameRecorder
  readonly renderer: Renderer
  readonly session: PtySession
  /** The root's identity for signal events, or why there is none (binding failed). */
  readonly rootIdentity: () => Promise<StartIdentity | { readonly unavailable: string }>
  /** True once REA has seen the root gone: later events are skipped. */
  readonly rootExited: () => boolean
  readonly onInteraction: () => void
}

/**
 * Dispatches the scenario's events at their `at_ms` from launch, on the capture's monotonic clock. Before each
 * event a checkpoint frame is requested (its sequence number fixes what it shows, so dispatch does not wait
 * for rendering); a resize also gets a checkpoint frame after it. Events keep being dispatched while a
 * finalization interval runs; those still pending when the run ends are recorded as skipped.
 */
export class EventScheduler {
  readonly #context: SchedulerContext
  readonly #interactions: Interaction[] = []
  readonly #pending = new Set<Promise<void>>()
  #next = 0
  #cancelTimer: (() => void) | undefined
  #finished = false

  constructor(context: SchedulerContext) {
    this.#context = context
  }

  get dispatchedCount(): number {
    return this.#interactions.length
  }

  start(): void {
    this.#arm()
  }

  /** The run ended: every event not dispatched yet is recorded as skipped, now. */
  finish(): void {
    this.#finished = true
    this.#cancelTimer?.()
    while (this.#next < this.#context.events.length) {
      this.#skip(this.#next++, 'the target had exited before the event was due')
    }
  }

  /** Every interaction, in journal order, once pending signal deliveries have settled. */
  async interactions(): Promise<Interaction[]> {
    await Promise.all(this.#pending)
    return [...this.#interactions].sort((a, b) => a.sequence - b.sequence)
  }

  #arm(): void {
    const event = this.#context.events[this.#next]
    if (event === undefined || this.#finished) {
      return
    }
    this.#cancelTimer = setLongTimeout(
      () => this.#dispatchDue(),
      event.at_ms - this.#context.clock.preciseMs(),
    )
  }

  #dispatchDue(): void {
    const now = this.#context.clock.preciseMs()
    for (
      let event = this.#context.events[this.#next];
      event !== undefined && event.at_ms <= now;
      event = this.#context.events[this.#next]
    ) {
      this.#dispatch(this.#next++, event)
    }
    this.#arm()
  }

  #dispatch(index: number, event: ScenarioEvent): void {
    const { session, frames, renderer, rootExited } = this.#context
    if (rootExited()) {
      this.#skip(index, 'the target had exited')
      return
    }
    void frames.record({ trigger: 'before_event', eventIndex: index })
    switch (event.type) {
      case 'input':
        this.#attempt(index, event, () => session.write(event.data))
        return
      case 'resize':
        this.#attempt(index, event, () => {
          session.resize(event.columns, event.rows)
          renderer.resize(event.columns, event.rows)
        })
        void frames.record({ trigger: 'after_resize', eventIndex: index })
        return
      case 'signal':
        this.#signal(index, event)
        return
    }
  }

  #attempt(index: number, event: ScenarioEvent, action: () => void): void {
    const position = this.#context.journal.record()
    let failure: string | undefined
    try {
      action()
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error)
    }
    this.#push({
      ...position,
      event_index: index,
      type: event.type,
      scheduled_at_ms: event.at_ms,
      outcome: failure === undefined ? 'dispatched' : 'failed',
      ...(failure === undefined ? {} : { reason: failure }),
    })
  }

  /** A signal event goes to the root only, through the identity-checked, bounded delivery. */
  #signal(index: number, event: Extract<ScenarioEvent, { type: 'signal' }>): void {
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
      this.#push({
        ...position,
        event_index: index,
        type: 'signal',
        scheduled_at_ms: event.at_ms,
        outcome: outcome.delivery === 'signaled' ? 'dispatched' : skipped ? 'skipped' : 'failed',
        delivery: outcome.delivery,
        ...(outcome.reason === undefined
          ? skipped
            ? { reason: 'the target had exited' }
            : {}
          : { reason: outcome.reason }),
      })
    })
    this.#pending.add(pending)
    void pending.finally(() => this.#pending.delete(pending))
  }

  #skip(index: number, reason: string): void {
    const event = this.#context.events[index]
    if (event === undefined) {
      return
    }
    this.#push({
      ...this.#context.journal.record(),
      event_index: index,
      type: event.type,
      scheduled_at_ms: event.at_ms,
      outcome: 'skipped',
      reason,
    })
  }

  #push(interaction: Interaction): void {
    this.#interactions.push(interaction)
    this.#context.onInteraction()
  }
}
