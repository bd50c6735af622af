import { setTimeout as delay } from 'node:timers/promises'
import type { Interaction } from '../evidence/schema.js'
import type { JournalPosition } from '../evidence/sequence-clock.js'
import { errorMessage } from '../internal/error-message.js'
import type { ScenarioEvent } from '../scenario/schema.js'
import type { MonotonicClock } from '../internal/monotonic-clock.js'
import { encodeKeys } from '../screen/keys.js'
import type { LiveTerminal } from '../terminal/live-terminal.js'
import type { PtySession } from '../terminal/pty-backend.js'
import type { ExchangeOutcome } from '../evidence/input-waits.js'
import type { ExchangeRecord, InputExchange } from './input-exchange.js'
import { KEY_GAP_MS, KEY_READ_LIMIT_MS } from '../scenario/event-dispatch.js'

/** What typing one input event did. */
export interface Typed {
  /** Whether anything was written: false when the run ended (or the write failed) before the first byte. */
  readonly started: boolean
  /** Bytes written: `data` as given, or each key encoded for the terminal's modes when it was typed. */
  readonly bytes: number
  /** For keys: how many were written; fewer than given when the run ended while they were typed. */
  readonly keysWritten: number
  /** What the input waited for in the terminal's exchange (summed over its keys); undefined when nothing. */
  readonly exchange: ExchangeRecord | undefined
  /** Why a write failed; the event then failed. */
  readonly failure: string | undefined
}

export interface TypingContext {
  readonly session: PtySession
  readonly live: LiveTerminal | undefined
  readonly exchange: InputExchange
  readonly clock: MonotonicClock
  /** True once the run has ended: nothing more is typed. */
  readonly ended: () => boolean
  /** Runs right before the first byte is written (the checkpoint frame and the event's place in the journal). */
  readonly beforeFirstWrite: () => void
  /**
   * The legacy dispatch model: no wait for the exchange, and the keys of an event in one write (encoded once the
   * live terminal has caught up, for its modes).
   */
  readonly immediate?: boolean
}

/**
 * Types one input event as a person at a terminal would: after the terminal's exchange with the program (see
 * InputExchange), `data` in one write (a paste), `keys` one key per write, each encoded for the terminal's
 * modes as they stand when it is typed (a program may switch its cursor keys between two), the next once the
 * program has read it, and at least KEY_GAP_MS later.
 */
export async function typeInput(
  input: { readonly data: string } | { readonly keys: readonly string[] },
  context: TypingContext,
): Promise<Typed> {
  if (context.immediate === true) {
    return typeAtOnce(input, context)
  }
  const pieces =
    'data' in input ? [() => input.data] : input.keys.map((key) => () => encode(key, context.live))
  let bytes = 0
  let written = 0
  let exchange: ExchangeRecord | undefined
  for (const [index, piece] of pieces.entries()) {
    const waited = await context.exchange.settle()
    exchange = combine(exchange, waited)
    if (context.ended()) {
      break
    }
    if (index === 0) {
      context.beforeFirstWrite()
    }
    const text = piece()
    const readBefore = context.exchange.readBytes()
    try {
      context.session.write(text)
    } catch (error) {
      return { started: written > 0, bytes, keysWritten: written, exchange, failure: errorMessage(error) }
    }
    bytes += Buffer.byteLength(text)
    written++
    if (index < pieces.length - 1) {
      await typed(context, readBefore)
    }
  }
  return { started: written > 0, bytes, keysWritten: written, exchange, failure: undefined }
}

/** The legacy dispatch model: everything in one write, at once (keys once the live terminal has caught up). */
async function typeAtOnce(
  input: { readonly data: string } | { readonly keys: readonly string[] },
  context: TypingContext,
): Promise<Typed> {
  const live = context.live
  if ('keys' in input && live !== undefined && live.stopped === undefined && !live.idle) {
    await live.whenRendered(() => undefined)
  }
  if (context.ended()) {
    return { started: false, bytes: 0, keysWritten: 0, exchange: undefined, failure: undefined }
  }
  const text =
    'data' in input
      ? input.data
      : encodeKeys(input.keys, { applicationCursorKeys: live?.applicationCursorKeys ?? false })
  const count = 'data' in input ? 1 : input.keys.length
  context.beforeFirstWrite()
  try {
    context.session.write(text)
  } catch (error) {
    return { started: true, bytes: 0, keysWritten: 0, exchange: undefined, failure: errorMessage(error) }
  }
  return {
    started: true,
    bytes: Buffer.byteLength(text),
    keysWritten: count,
    exchange: undefined,
    failure: undefined,
  }
}

/** A key as the terminal sends it now: the live terminal has parsed everything before (the exchange saw to it). */
function encode(key: string, live: LiveTerminal | undefined): string {
  return encodeKeys([key], { applicationCursorKeys: live?.applicationCursorKeys ?? false })
}

/**
 * After a key: until the program has read it (at most KEY_READ_LIMIT_MS), and at least KEY_GAP_MS. `readBefore`
 * is how many bytes the program had read before the key was written.
 */
async function typed(context: TypingContext, readBefore: number | undefined): Promise<void> {
  const writtenMs = context.clock.preciseMs()
  await context.exchange.untilRead(writtenMs + KEY_READ_LIMIT_MS, readBefore)
  const restMs = writtenMs + KEY_GAP_MS - context.clock.preciseMs()
  if (restMs > 0 && !context.ended()) {
    await delay(restMs)
  }
}

const OUTCOME_WEIGHT: Record<ExchangeOutcome, number> = { read: 0, unobservable: 1, limit_reached: 2 }

/** The exchange waits of several keys as one record: replies and time added up, the worst outcome kept. */
function combine(
  total: ExchangeRecord | undefined,
  next: ExchangeRecord | undefined,
): ExchangeRecord | undefined {
  if (total === undefined || next === undefined) {
    return total ?? next
  }
  return {
    replies: total.replies + next.replies,
    held_ms: total.held_ms + next.held_ms,
    outcome: OUTCOME_WEIGHT[next.outcome] > OUTCOME_WEIGHT[total.outcome] ? next.outcome : total.outcome,
  }
}

/** The record of a typed input event, at the place in the journal its first byte took. */
export function typedInteraction(
  position: JournalPosition,
  index: number,
  event: Extract<ScenarioEvent, { type: 'input' }>,
  wait: Interaction['wait'],
  typed: Typed,
): Interaction {
  const keys = event.keys
  return {
    ...position,
    event_index: index,
    type: 'input',
    scheduled_at_ms: event.at_ms ?? null,
    outcome: typed.failure === undefined ? 'dispatched' : 'failed',
    ...(typed.failure === undefined ? {} : { reason: typed.failure }),
    ...(wait === undefined ? {} : { wait }),
    ...(keys === undefined ? {} : { bytes_sent: typed.bytes }),
    ...(keys === undefined || typed.keysWritten === keys.length ? {} : { keys_written: typed.keysWritten }),
    ...(typed.exchange === undefined ? {} : { exchange: typed.exchange }),
  }
}
