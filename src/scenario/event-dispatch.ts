/**
 * When input goes in, as a person at a real terminal would type it (docs/events.md#when-input-goes-in). Every
 * value is part of the dispatch model a capture commits (`comparison_contract.event_dispatch`): changing one is a
 * new model.
 */

/** The dispatch model these values make: committed by every capture whose scenario types input or waits. */
export const EVENT_DISPATCH = 'settled-v1'

/**
 * How REA dispatched events before it had a dispatch model (a committed contract without `event_dispatch`): input
 * written at once, the keys of an event in one write, a wait met at its match unless it gave `quiet_ms`. A
 * scenario may still ask for it, to compare with authorities recorded then.
 */
export const LEGACY_EVENT_DISPATCH = 'immediate'

export const EVENT_DISPATCH_MODELS = [LEGACY_EVENT_DISPATCH, EVENT_DISPATCH] as const
export type EventDispatchModel = (typeof EVENT_DISPATCH_MODELS)[number]

/**
 * A wait without `quiet_ms` is met once its condition holds and the output has then been quiet this long: a
 * full-screen program draws one reaction in several writes (a box's border, then its body, up to about 50 ms
 * apart in the programs measured for docs/fidelity.md), and input or a checkpoint must not land between them.
 */
export const WAIT_SETTLE_MS = 100

/**
 * A program that never stops drawing (a spinner, a clock) still meets a settling wait this long after its
 * condition held; the interaction records that it did not settle (`wait.settle: "limit_reached"`).
 */
export const WAIT_SETTLE_LIMIT_MS = 500

/**
 * After the program has read REA's replies to its queries, input waits until its output has been quiet this
 * long: a reply often makes it ask more (vim asks for its key codes a few at a time, up to about 50 ms apart).
 */
export const EXCHANGE_QUIET_MS = WAIT_SETTLE_MS

/** Input waits at most this long for the program to read REA's replies and end its exchange; then it goes in. */
export const EXCHANGE_LIMIT_MS = 2000

/** How often REA looks at the terminal's input queue while it waits for the program to read. */
export const UNREAD_POLL_MS = 1

/**
 * The keys of one `keys` event are written one at a time: the next once the program has read the previous one,
 * and at least this long after it, so that a program reading its input one keypress at a time (readline's
 * double Tab) never sees two keys in one read, as it would not from a person.
 */
export const KEY_GAP_MS = 10

/**
 * Right after a key is written the kernel may not yet show it in the terminal's input queue, so an empty queue
 * alone does not say it was read: REA also waits until the foreground program has read more bytes, or until the
 * queue has stayed empty this long (the reader is a process REA does not watch).
 */
export const KEY_QUEUED_MS = 50

/** A key the program does not read within this long is followed by the next anyway. */
export const KEY_READ_LIMIT_MS = 1000
