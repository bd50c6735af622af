import { DEFAULT_TERMINAL_TYPE } from '../scenario/resolve.js'
import type { Evidence, ResidualUnknown, TerminalReply } from '../evidence/schema.js'
import { SequenceClock } from '../evidence/sequence-clock.js'
import type { MonotonicClock } from '../internal/monotonic-clock.js'
import { createChunkNormalizer } from '../normalize/normalize-chunk.js'
import { SENSITIVE_REDACTION_VERSION, sensitiveValues } from '../normalize/sensitive-values.js'
import { createStreamRuleSet, type StreamRuleSet } from '../normalize/stream-rule-set.js'
import type { ResolvedScenario } from '../scenario/resolve.js'
import type { ProcessScenario } from '../scenario/schema.js'
import { FrameRecorder, type RenderedTerminalAccounting } from '../terminal/frame-recorder.js'
import { OutputRecorder, type RawTerminalAccounting } from '../terminal/output-recorder.js'
import type { PtySession } from '../terminal/pty-backend.js'
import { MAX_REDACTION_LOCATIONS, SensitiveRedactor } from '../terminal/redact.js'
import { LiveTerminal } from '../terminal/live-terminal.js'
import { queryKind } from '../evidence/query-kind.js'
import { Renderer, type RendererFlowControl } from '../screen/renderer.js'
import { releaseWhenQuiet } from './release-when-quiet.js'

/** Replies beyond this many are not given: a program asking in a loop would otherwise grow Evidence forever. */
export const MAX_TERMINAL_REPLIES = 1000

/** Where the comparison text of the output goes while an event waits on it (see `OutputRecorder.onText`). */
export interface OutputWatcher {
  noteOutput(text: string): void
  readonly watchesOutput: boolean
}

/** What records the run: one journal clock and the observers that share it. */
export interface Observers {
  readonly journal: SequenceClock
  readonly renderer: Renderer
  /** The terminal as the program sees it; undefined when nothing needs it (see `needsLiveTerminal`). */
  readonly live: LiveTerminal | undefined
  readonly recorder: OutputRecorder
  readonly frames: FrameRecorder
  readonly redactor: SensitiveRedactor
  /** The stream rules (placeholders, redactions, filters); undefined when the scenario names none. */
  readonly streamRules: StreamRuleSet | undefined
  /** Releases text the stream rules hold once output has gone quiet; told of every read. */
  readonly heldOutput: ReturnType<typeof releaseWhenQuiet>
  /** Replies written to the PTY; undefined when queries are not answered. */
  readonly replies: TerminalReply[] | undefined
  /** What the observers could not fully do, for the Evidence's residual unknowns. */
  readonly unknowns: ResidualUnknown[]
}

/** The live terminal is needed to answer queries, to watch the screen, and to encode keys for its modes. */
export function needsLiveTerminal(scenario: ProcessScenario): boolean {
  return (
    scenario.terminal.answer_queries ||
    scenario.events.some(
      (event) =>
        (event.type === 'input' && event.keys !== undefined) ||
        event.after?.screen !== undefined ||
        event.after?.screen_regex !== undefined ||
        event.after?.gone !== undefined,
    )
  )
}

/** What the terminal observers recorded, as plain data for assembly. */
export interface ObservedTerminal {
  readonly terminal: Evidence['terminal']
  /** What the terminal observers could not fully do, as residual unknowns. */
  readonly unknowns: readonly ResidualUnknown[]
  readonly raw: RawTerminalAccounting
  readonly rendered: RenderedTerminalAccounting
}

/**
 * The observers of one run, wired together: masked PTY bytes go to the output recorder, whose retained chunks
 * feed the renderer that frames are taken from; every chunk's comparison text also goes to `watcher`, where
 * events wait on the output. `session` is the launched command's PTY (undefined when none started): the
 * renderers' flow control pauses its reader.
 */
export function createObservers(
  resolved: ResolvedScenario,
  clock: MonotonicClock,
  session: PtySession | undefined,
  watcher: OutputWatcher,
): Observers {
  const { scenario } = resolved
  const streamRules = createStreamRuleSet(scenario.normalization, resolved)
  const journal = new SequenceClock(clock)
  const flow = new PauseGate(session)
  const renderer = new Renderer(scenario.terminal, flow.holder(), {
    widthModel: scenario.terminal.width_model,
  })
  const unknowns: ResidualUnknown[] = []
  const replies: TerminalReply[] | undefined = scenario.terminal.answer_queries ? [] : undefined
  const answer = (reply: string): void => {
    if (replies === undefined) {
      return
    }
    if (replies.length >= MAX_TERMINAL_REPLIES) {
      if (unknowns.every((unknown) => unknown.reason !== 'reply_limit_reached')) {
        unknowns.push({
          dimension: 'terminal',
          reason: 'reply_limit_reached',
          detail: `REA answered ${MAX_TERMINAL_REPLIES} terminal queries and left later ones unanswered`,
        })
      }
      return
    }
    session?.write(reply)
    replies.push({
      ...journal.record(),
      query: queryKind(reply),
      reply,
      byte_length: Buffer.byteLength(reply),
    })
  }
  const live = needsLiveTerminal(scenario)
    ? new LiveTerminal(
        scenario.terminal,
        flow.holder(),
        replies === undefined ? undefined : answer,
        scenario.environment['TERM'] ?? DEFAULT_TERMINAL_TYPE,
      )
    : undefined
  const recorder: OutputRecorder = new OutputRecorder({
    budgetBytes: scenario.limits.output_bytes,
    journal,
    normalize: createChunkNormalizer(scenario.normalization),
    ...(streamRules === undefined ? {} : { streamRules: streamRules.rules }),
    // The live terminal answers queries as a real terminal would: it sees what the program wrote, at once.
    onRetained: (_chunk, original) => {
      if (!recorder.hasGap) {
        live?.feed(original)
      }
    },
    // Frames show the comparison text; past a gap the renderer would show a screen that never existed.
    onComparisonText: (text) => {
      if (!recorder.hasGap) {
        renderer.enqueue(text)
      }
    },
    // From the first omitted chunk on no frame is rendered, so what waits for the renderer is never needed.
    onGap: () => {
      renderer.discardQueued()
      if (live !== undefined) {
        live.stop('limits.output_bytes dropped output, and the live terminal follows only retained output')
        unknowns.push({
          dimension: 'terminal',
          reason: 'live_terminal_stopped',
          detail:
            'the live terminal stopped at the first output limits.output_bytes dropped: later terminal queries went unanswered and the screen was no longer watched',
        })
      }
    },
    // Waits on the output see every chunk's comparison text, also the chunks the output budget drops.
    onText: (text) => watcher.noteOutput(text),
    wantsText: () => watcher.watchesOutput,
  })
  const observers: Observers = {
    journal,
    renderer,
    live,
    recorder,
    frames: new FrameRecorder(
      renderer,
      journal,
      scenario.limits.rendered_bytes,
      () => recorder.hasGap,
      () => recorder.releaseHeld(),
    ),
    redactor: new SensitiveRedactor(sensitiveValues(scenario)),
    streamRules,
    heldOutput: releaseWhenQuiet(recorder, () => flow.paused),
    replies,
    unknowns,
  }
  return observers
}

/**
 * The PTY reader is paused while any renderer has too much unparsed text, and resumed only when none has:
 * the frame renderer and the live terminal each hold the gate.
 */
class PauseGate {
  readonly #session: PtySession | undefined
  #holding = 0

  constructor(session: PtySession | undefined) {
    this.#session = session
  }

  /** Whether the PTY reader is paused now: output may be waiting to be read. */
  get paused(): boolean {
    return this.#holding > 0
  }

  holder(): RendererFlowControl {
    let held = false
    return {
      pause: () => {
        if (!held) {
          held = true
          if (this.#holding++ === 0) {
            this.#session?.pause()
          }
        }
      },
      resume: () => {
        if (held) {
          held = false
          if (--this.#holding === 0) {
            this.#session?.resume()
          }
        }
      },
    }
  }
}

/** The terminal part of the Evidence and its accounting, read off the observers once the run is over. */
export function observedTerminal({
  recorder,
  frames,
  redactor,
  streamRules,
  replies,
  unknowns,
}: Observers): ObservedTerminal {
  const stream = recorder.stream
  return {
    terminal: {
      chunks: recorder.chunks,
      omitted_chunks: recorder.omissions,
      frames: frames.frames,
      ...(replies === undefined ? {} : { replies }),
      redaction: redactor.active
        ? {
            version: SENSITIVE_REDACTION_VERSION,
            masked_count: redactor.count,
            locations: redactor.locations,
            locations_truncated: redactor.count > MAX_REDACTION_LOCATIONS,
          }
        : null,
      ...(streamRules === undefined || stream === undefined
        ? {}
        : {
            stream_normalization: streamRules.report(
              (label) => stream.replacements(label),
              stream.accounting,
            ),
          }),
    },
    raw: recorder.accounting,
    rendered: frames.accounting,
    unknowns,
  }
}
