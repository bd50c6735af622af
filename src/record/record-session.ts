import { StringDecoder } from 'node:string_decoder'
import { spawnOptions } from '../capture/launch.js'
import { cleanUpOwnedProcesses, type OwnedCleanupResult } from '../process/cleanup.js'
import { readStartIdentity, type StartIdentity } from '../process/identity.js'
import { processInspector } from '../process/inspector.js'
import { OwnedTree } from '../process/owned-tree.js'
import { createRunToken } from '../process/run-token.js'
import { sendCheckedSignal } from '../process/signal.js'
import type { ResolvedScenario } from '../scenario/resolve.js'
import { LiveTerminal } from '../terminal/live-terminal.js'
import type { PtyBackend, PtyExit, PtySession } from '../terminal/pty-backend.js'
import type {
  AnswerScreen,
  KeystrokeEntry,
  RecordedTimeline,
  ScreenSnapshot,
  TimelineEntry,
} from './timeline.js'
import { SETTLED_QUIET_MS } from './settled-screen.js'
import { createMonotonicClock } from '../internal/monotonic-clock.js'
import type { PersonTerminal } from '../internal/person-terminal.js'

/** How long the program must stay quiet after drawing in answer to a key before its screen counts as settled. */
export const ANSWER_QUIET_MS = 50
/** How long a key waits for the program's first drawing before its screen is read as "nothing drawn". */
export const ANSWER_FIRST_OUTPUT_MS = 1000

export interface RecordSessionResult {
  readonly timeline: RecordedTimeline
  readonly exit: PtyExit
  readonly cleanup: OwnedCleanupResult
}

/**
 * Runs the command in a PTY connected to the person's terminal until it ends: keystrokes go to the program as
 * they come (the person's terminal in raw mode, so Ctrl-C is a keystroke the program's terminal turns into
 * SIGINT), its output goes to the person's screen and to a live terminal model, and the PTY follows the person's
 * terminal size. Each keystroke and resize is recorded with the screen just before it, the output since the
 * previous one, how long the program had been quiet and whether its terminal echoed. `signal` (the recorder's
 * own SIGINT, SIGTERM or SIGHUP) is forwarded to the program, through the identity-checked signal function. The
 * person's terminal is given back as it was (raw mode off) however the session ends.
 */
export async function recordSession(
  resolved: ResolvedScenario,
  backend: PtyBackend,
  person: PersonTerminal,
  signal: AbortSignal | undefined,
): Promise<RecordSessionResult> {
  const { scenario } = resolved
  const clock = createMonotonicClock()
  const now = (): number => Math.round(clock.preciseMs())
  const { session, identity, tree } = launchRecorded(resolved, backend)
  // The person's own terminal answers the program's queries (its replies arrive as keystrokes): REA's model
  // only follows the screen.
  const live = followingTerminal(resolved)
  const decoder = new StringDecoder('utf8')
  const pending: Promise<TimelineEntry>[] = []
  let output = ''
  let sinceEntry = ''
  let lastOutputAt = 0
  let columns = scenario.terminal.columns
  let rows = scenario.terminal.rows
  let ended = false
  const snapshot = (): Promise<ScreenSnapshot> => live.whenRendered(() => live.drawnScreen())
  const answer = new AnswerWatch(snapshot, () => now() - lastOutputAt)

  const disposeData = session.onData((chunk) => {
    person.output.write(chunk)
    const text = decoder.write(chunk)
    output += text
    sinceEntry += text
    lastOutputAt = now()
    live.feed(text)
    answer.drew()
  })
  const onInput = (data: Buffer | string): void => {
    if (ended) {
      return
    }
    const input = typeof data === 'string' ? data : data.toString('utf8')
    const at_ms = now()
    // The previous keys' answer is what the screen shows now, before these keys go in.
    answer.settle()
    // Read before the keystrokes go in: what the terminal was set to when the person typed them.
    const modes = session.readLocalModes()
    const screenBefore = snapshot()
    session.write(input)
    const before = { at_ms, output: sinceEntry, quiet_ms: at_ms - lastOutputAt, input, modes }
    sinceEntry = ''
    pending.push(keystrokeEntry(before, screenBefore, answer.watch()))
  }
  const onResize = (): void => {
    if (ended || (person.output.columns === columns && person.output.rows === rows)) {
      return
    }
    columns = person.output.columns
    rows = person.output.rows
    const at_ms = now()
    answer.settle()
    session.resize(columns, rows)
    live.resize(columns, rows)
    const before = { at_ms, output: sinceEntry, quiet_ms: at_ms - lastOutputAt }
    sinceEntry = ''
    pending.push(snapshot().then((screen) => ({ kind: 'resize', ...before, screen, columns, rows })))
  }
  const forward = signalForwarder(signal, identity, () => ended)
  const raw = person.input.isRaw === true
  try {
    person.input.setRawMode(true)
    person.input.on('data', onInput)
    person.input.resume()
    person.output.on('resize', onResize)
    signal?.addEventListener('abort', forward, { once: true })
    if (signal?.aborted === true) {
      forward()
    }
    const exit = await session.exited
    ended = true
    const rest = decoder.end()
    if (rest !== '') {
      output += rest
      live.feed(rest)
    }
    answer.settle()
    return {
      timeline: await finishedTimeline(scenario.terminal, pending, snapshot, output, now),
      exit,
      cleanup: await cleanUpOwnedProcesses(tree),
    }
  } finally {
    ended = true
    answer.settle()
    signal?.removeEventListener('abort', forward)
    person.output.off('resize', onResize)
    person.input.off('data', onInput)
    person.input.setRawMode(raw)
    person.input.pause()
    disposeData()
    session.dispose()
    live.dispose()
  }
}

/** A keystroke entry once the screens before and after the keys have been read. */
async function keystrokeEntry(
  before: Omit<KeystrokeEntry, 'kind' | 'screen' | 'answer'>,
  screen: Promise<ScreenSnapshot>,
  answer: Promise<AnswerScreen>,
): Promise<KeystrokeEntry> {
  const [screenBefore, answerScreen] = await Promise.all([screen, answer])
  return { kind: 'keystrokes', ...before, screen: screenBefore, answer: answerScreen }
}

/** The timeline once every pending screen of the session has been read. */
async function finishedTimeline(
  terminal: { readonly columns: number; readonly rows: number },
  pending: readonly Promise<TimelineEntry>[],
  snapshot: () => Promise<ScreenSnapshot>,
  output: string,
  now: () => number,
): Promise<RecordedTimeline> {
  const entries = await Promise.all(pending)
  const finalScreen = await snapshot()
  return { columns: terminal.columns, rows: terminal.rows, entries, output, finalScreen, duration_ms: now() }
}

/** Starts the command in a PTY under a run token of its own, with the identity and owned tree its cleanup needs. */
function launchRecorded(
  resolved: ResolvedScenario,
  backend: PtyBackend,
): { session: PtySession; identity: StartIdentity | undefined; tree: OwnedTree | undefined } {
  const token = createRunToken()
  const session = backend.spawn(spawnOptions(resolved, token))
  const identityRead = readStartIdentity(session.pid)
  const identity: StartIdentity | undefined =
    identityRead.status === 'ok' ? identityRead.value.identity : undefined
  const inspector = processInspector()
  const tree =
    inspector === undefined
      ? undefined
      : new OwnedTree(
          token,
          { pid: session.pid, identity, startTicks: identity?.start_ticks ?? 0 },
          inspector,
        )
  return { session, identity, tree }
}

/**
 * A model of the screen that only follows it: the person's own terminal answers the program's queries (its
 * replies arrive as keystrokes), so the model has no one to pause and nothing to answer.
 */
function followingTerminal(resolved: ResolvedScenario): LiveTerminal {
  const pauseNothing = { pause: () => undefined, resume: () => undefined }
  return new LiveTerminal(resolved.scenario.terminal, pauseNothing, undefined, resolved.terminalType)
}

/** Passes the recorder's own signal on to the program, through the identity-checked signal function. */
function signalForwarder(
  signal: AbortSignal | undefined,
  identity: StartIdentity | undefined,
  ended: () => boolean,
): () => void {
  return () => {
    const name = typeof signal?.reason === 'string' ? (signal.reason as NodeJS.Signals) : 'SIGTERM'
    if (identity !== undefined && !ended()) {
      sendCheckedSignal(identity, name)
    }
  }
}

/**
 * The screen that answers the latest keystrokes: read once the program has been quiet for `ANSWER_QUIET_MS`
 * after drawing (or `ANSWER_FIRST_OUTPUT_MS` after the keys when it drew nothing), or at once when the next action
 * or the exit comes first. Whether it drew at all is part of the answer.
 */
class AnswerWatch {
  readonly #snapshot: () => Promise<ScreenSnapshot>
  /** Milliseconds since the program last wrote. */
  readonly #quietMs: () => number
  #current: { resolve: (answer: Promise<AnswerScreen>) => void; drew: boolean } | undefined
  #timer: NodeJS.Timeout | undefined

  constructor(snapshot: () => Promise<ScreenSnapshot>, quietMs: () => number) {
    this.#snapshot = snapshot
    this.#quietMs = quietMs
  }

  /** Starts watching for the answer to keystrokes just written. */
  watch(): Promise<AnswerScreen> {
    this.settle()
    return new Promise<AnswerScreen>((resolve) => {
      this.#current = { resolve: (answer) => resolve(answer), drew: false }
      this.#arm(ANSWER_FIRST_OUTPUT_MS)
    })
  }

  /** The program wrote: the answer is read once it has been quiet for a moment. */
  drew(): void {
    if (this.#current !== undefined) {
      this.#current.drew = true
      this.#arm(ANSWER_QUIET_MS)
    }
  }

  /** Reads the answer now (the next action or the exit came first), or when the timer says it is settled. */
  settle(): void {
    clearTimeout(this.#timer)
    const current = this.#current
    this.#current = undefined
    if (current !== undefined) {
      const drew = current.drew
      const settled = !drew || this.#quietMs() >= SETTLED_QUIET_MS
      current.resolve(this.#snapshot().then((screen) => ({ screen, drew, settled })))
    }
  }

  #arm(delayMs: number): void {
    clearTimeout(this.#timer)
    this.#timer = setTimeout(() => this.settle(), delayMs)
    // A pending answer never keeps the recorder alive: the session's end settles it.
    this.#timer.unref()
  }
}
