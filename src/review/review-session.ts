import { readPendingCapture, type ShowPath } from './pending-capture.js'
import { pendingEntry, showDiff, type RelativePath } from './pending-report.js'
import {
  acceptPendingCapture,
  rejectPendingCapture,
  type AcceptOptions,
  type ReviewOutcome,
} from './review-actions.js'
import { decodeReviewKeys, type ReviewKey } from './review-keys.js'
import { checkpointFrames, firstDifferentCheckpoint, replayPair } from './review-model.js'
import { reviewScreenLines, type CheckpointPair, type ReviewScreenModel } from './review-screen.js'
import type { PersonTerminal } from '../internal/person-terminal.js'

export interface ReviewSessionOptions {
  /** Absolute paths of the pending captures, in the order they are reviewed. */
  readonly pending: readonly string[]
  readonly accept: AcceptOptions
  readonly show: ShowPath
  readonly relative: RelativePath
  readonly colour: boolean
  /** Aborted by a signal to the review (SIGTERM, SIGHUP, SIGINT from elsewhere): it ends at once. */
  readonly signal: AbortSignal
}

export interface ReviewSessionResult {
  readonly outcomes: readonly ReviewOutcome[]
  /** Pending captures left as they were (skipped, or not reached). */
  readonly skipped: readonly string[]
  /** `finished` every capture was decided or skipped, `quit` by `q`, `interrupted` by Ctrl-C, `signal` by a signal. */
  readonly ended: 'finished' | 'quit' | 'interrupted' | 'signal'
}

// The alternate screen keeps the person's scrollback as it was; the cursor is hidden while the review draws.
const ENTER = '\x1b[?1049h\x1b[?25l'
const LEAVE = '\x1b[0m\x1b[?25h\x1b[?1049l'

/**
 * Reviews pending captures one at a time in the person's terminal: raw mode, the alternate screen, one key a
 * decision (`review-keys.ts`), redrawn at every key and resize (`review-screen.ts`). The terminal is given back as
 * it was (line mode, echo, the normal screen, the cursor) however the review ends: finished, `q`, Ctrl-C, a
 * signal, or an error.
 */
export async function runReviewSession(
  terminal: PersonTerminal,
  options: ReviewSessionOptions,
): Promise<ReviewSessionResult> {
  const keys = keyQueue(terminal, options.signal)
  const outcomes: ReviewOutcome[] = []
  const skipped: string[] = []
  const wasRaw = terminal.input.isRaw === true
  let draw: (() => void) | null = null
  const onResize = (): void => draw?.()
  let ended: ReviewSessionResult['ended'] = 'finished'
  try {
    terminal.input.setRawMode(true)
    terminal.output.write(ENTER)
    terminal.output.on('resize', onResize)
    let all: 'accept' | 'reject' | 'skip' | null = null
    let status = `${options.pending.length} pending ${options.pending.length === 1 ? 'capture' : 'captures'} to review`
    for (const [index, pending] of options.pending.entries()) {
      if (ended !== 'finished' || all === 'skip') {
        skipped.push(pending)
        continue
      }
      let decision: 'accept' | 'reject' | 'skip' | 'stop'
      if (all !== null) {
        decision = all
      } else {
        const item = reviewItem(pending, index, options, status)
        draw = () => terminal.output.write(frameText(item.model(), terminal, options.colour))
        draw()
        const answer = await item.decide(keys.next, () => draw?.())
        draw = null
        if (answer.kind === 'stop') {
          ended = answer.why
          skipped.push(pending)
          continue
        }
        all = answer.all ? answer.decision : null
        decision = answer.decision
      }
      const outcome = act(decision, pending, options)
      if (outcome === null) {
        skipped.push(pending)
        status = `skipped ${options.show(pending)}`
      } else {
        outcomes.push(outcome)
        status = outcome.message.split('\n')[0] ?? ''
      }
    }
  } finally {
    terminal.output.off('resize', onResize)
    keys.dispose()
    terminal.output.write(LEAVE)
    terminal.input.setRawMode(wasRaw)
    terminal.input.pause()
  }
  return { outcomes, skipped, ended }
}

function act(
  decision: 'accept' | 'reject' | 'skip',
  pending: string,
  options: ReviewSessionOptions,
): ReviewOutcome | null {
  switch (decision) {
    case 'accept':
      return acceptPendingCapture(pending, options.accept, options.show)
    case 'reject':
      return rejectPendingCapture(pending, options.show)
    case 'skip':
      return null
  }
}

type Answer =
  | { readonly kind: 'decided'; readonly decision: 'accept' | 'reject' | 'skip'; readonly all: boolean }
  | { readonly kind: 'stop'; readonly why: 'quit' | 'interrupted' | 'signal' }

/** One pending capture on screen: its model, changed by the keys that do not decide, until one does. */
function reviewItem(pending: string, index: number, options: ReviewSessionOptions, status: string) {
  const capture = readPendingCapture(pending, options.show)
  const frames = checkpointFrames(capture)
  const replayed = new Map<number, CheckpointPair>()
  const pairs = frames.map((frame, position) => ({
    get label() {
      return frame.label
    },
    get authority() {
      return pairAt(position).authority
    },
    get pending() {
      return pairAt(position).pending
    },
  }))
  const pairAt = (position: number): CheckpointPair => {
    const known = replayed.get(position)
    if (known !== undefined) {
      return known
    }
    const pair = replayPair(frames[position] ?? { label: '', authority: null, pending: null })
    replayed.set(position, pair)
    return pair
  }
  let model: ReviewScreenModel = {
    position: index + 1,
    total: options.pending.length,
    entry: pendingEntry(capture, options.relative),
    checkpoints: pairs,
    checkpoint: firstDifferentCheckpoint(frames),
    diff: showDiff(capture, 1),
    fullDiff: showDiff(capture, Number.POSITIVE_INFINITY),
    view: 'screens',
    scroll: 0,
    status,
  }
  return {
    model: () => model,
    async decide(next: () => Promise<ReviewKey | 'signal'>, redraw: () => void): Promise<Answer> {
      for (;;) {
        const key = await next()
        const answer = answerOf(key)
        if (answer !== null) {
          return answer
        }
        model = navigate(model, key as ReviewKey)
        redraw()
      }
    },
  }
}

function answerOf(key: ReviewKey | 'signal'): Answer | null {
  switch (key) {
    case 'signal':
      return { kind: 'stop', why: 'signal' }
    case 'interrupt':
      return { kind: 'stop', why: 'interrupted' }
    case 'quit':
      return { kind: 'stop', why: 'quit' }
    case 'accept':
    case 'reject':
    case 'skip':
      return { kind: 'decided', decision: key, all: false }
    case 'accept-all':
      return { kind: 'decided', decision: 'accept', all: true }
    case 'reject-all':
      return { kind: 'decided', decision: 'reject', all: true }
    case 'skip-all':
      return { kind: 'decided', decision: 'skip', all: true }
    default:
      return null
  }
}

/** What a key that decides nothing changes: the view, the checkpoint shown, the diff's scroll. */
function navigate(model: ReviewScreenModel, key: ReviewKey): ReviewScreenModel {
  const last = Math.max(0, model.checkpoints.length - 1)
  const page = 10
  switch (key) {
    case 'diff':
      return { ...model, view: model.view === 'diff' ? 'screens' : 'diff', scroll: 0 }
    case 'help':
      return { ...model, view: model.view === 'help' ? 'screens' : 'help' }
    case 'previous-screen':
      return { ...model, view: 'screens', checkpoint: Math.max(0, model.checkpoint - 1) }
    case 'next-screen':
      return { ...model, view: 'screens', checkpoint: Math.min(last, model.checkpoint + 1) }
    case 'up':
    case 'down':
    case 'page-up':
    case 'page-down': {
      const step = key === 'up' ? -1 : key === 'down' ? 1 : key === 'page-up' ? -page : page
      const end = Math.max(0, model.fullDiff.length - 1)
      return { ...model, scroll: Math.min(end, Math.max(0, model.scroll + step)) }
    }
    default:
      return model
  }
}

/** The frame as one write: every row placed by cursor position, so nothing depends on how lines wrap. */
function frameText(model: ReviewScreenModel, terminal: PersonTerminal, colour: boolean): string {
  const columns = terminal.output.columns
  const rows = terminal.output.rows
  const lines = reviewScreenLines(model, columns, rows, colour)
  return lines.map((line, row) => `\x1b[${row + 1};1H${line}`).join('')
}

/** Keys as they come, one at a time; a signal ends the wait. */
function keyQueue(terminal: PersonTerminal, signal: AbortSignal) {
  const queued: ReviewKey[] = []
  let waiting: ((key: ReviewKey | 'signal') => void) | null = null
  const onData = (data: Buffer | string): void => {
    queued.push(...decodeReviewKeys(typeof data === 'string' ? data : data.toString('utf8')))
    const wake = waiting
    if (wake !== null && queued.length > 0) {
      waiting = null
      wake(queued.shift() ?? 'quit')
    }
  }
  const onAbort = (): void => {
    const wake = waiting
    waiting = null
    wake?.('signal')
  }
  terminal.input.on('data', onData)
  terminal.input.resume()
  signal.addEventListener('abort', onAbort, { once: true })
  return {
    next: (): Promise<ReviewKey | 'signal'> => {
      if (signal.aborted) {
        return Promise.resolve('signal')
      }
      const key = queued.shift()
      return key !== undefined ? Promise.resolve(key) : new Promise((resolve) => (waiting = resolve))
    },
    dispose: (): void => {
      terminal.input.off('data', onData)
      signal.removeEventListener('abort', onAbort)
    },
  }
}
