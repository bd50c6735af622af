import type { Evidence } from '../evidence/schema.js'
import { SequenceClock } from '../evidence/sequence-clock.js'
import type { MonotonicClock } from '../internal/monotonic-clock.js'
import { createChunkNormalizer } from '../normalize/normalize-chunk.js'
import { SENSITIVE_REDACTION_VERSION, sensitiveValues } from '../normalize/sensitive-values.js'
import type { ProcessScenario } from '../scenario/schema.js'
import { FrameRecorder, type RenderedTerminalAccounting } from '../terminal/frame-recorder.js'
import { OutputRecorder, type RawTerminalAccounting } from '../terminal/output-recorder.js'
import type { PtySession } from '../terminal/pty-backend.js'
import { MAX_REDACTION_LOCATIONS, SensitiveRedactor } from '../terminal/redact.js'
import { Renderer } from '../terminal/renderer.js'

/** What records the run: one journal clock and the observers that share it. */
export interface Observers {
  readonly journal: SequenceClock
  readonly renderer: Renderer
  readonly recorder: OutputRecorder
  readonly frames: FrameRecorder
  readonly redactor: SensitiveRedactor
}

/** What the terminal observers recorded, as plain data for assembly. */
export interface ObservedTerminal {
  readonly terminal: Evidence['terminal']
  readonly raw: RawTerminalAccounting
  readonly rendered: RenderedTerminalAccounting
}

/**
 * The observers of one run, wired together: masked PTY bytes go to the output recorder, whose retained chunks
 * feed the renderer that frames are taken from. `session` is read lazily: the renderer's flow control pauses
 * the PTY reader, which exists only once the command was launched.
 */
export function createObservers(
  scenario: ProcessScenario,
  clock: MonotonicClock,
  session: () => PtySession | undefined,
): Observers {
  const journal = new SequenceClock(clock)
  const renderer = new Renderer(scenario.terminal, {
    pause: () => session()?.pause(),
    resume: () => session()?.resume(),
  })
  const recorder: OutputRecorder = new OutputRecorder({
    budgetBytes: scenario.limits.output_bytes,
    journal,
    normalize: createChunkNormalizer(scenario.normalization),
    onRetained: (chunk) => {
      // Past a gap the renderer would show a screen the program never showed.
      if (!recorder.hasGap) {
        renderer.enqueue(chunk.data)
      }
    },
    // From the first omitted chunk on no frame is rendered, so what waits for the renderer is never needed.
    onGap: () => renderer.discardQueued(),
  })
  const frames = new FrameRecorder(renderer, journal, scenario.limits.rendered_bytes, () => recorder.hasGap)
  return { journal, renderer, recorder, frames, redactor: new SensitiveRedactor(sensitiveValues(scenario)) }
}

/** The terminal part of the Evidence and its accounting, read off the observers once the run is over. */
export function observedTerminal({ recorder, frames, redactor }: Observers): ObservedTerminal {
  return {
    terminal: {
      chunks: recorder.chunks,
      omitted_chunks: recorder.omissions,
      frames: frames.frames,
      redaction: redactor.active
        ? {
            version: SENSITIVE_REDACTION_VERSION,
            masked_count: redactor.count,
            locations: redactor.locations,
            locations_truncated: redactor.count > MAX_REDACTION_LOCATIONS,
          }
        : null,
    },
    raw: recorder.accounting,
    rendered: frames.accounting,
  }
}
