import type { SequenceClock } from '../evidence/sequence-clock.js'
import type { TerminalFrame } from '../evidence/schema.js'
import type { RenderedScreen, Renderer } from '../screen/renderer.js'

/**
 * Why a frame was taken. Checkpoints (`before_event`, `after_resize`, `final`) happen at the same points of
 * every run of a scenario and are compared; `quiet` frames depend on timing and are kept for people only.
 */
export type FrameTrigger = TerminalFrame['trigger']
export type FrameOmissionReason = Extract<TerminalFrame, { status: 'omitted' }>['reason']
type FrameBase = Pick<TerminalFrame, 'sequence' | 'at_ms' | 'trigger' | 'checkpoint' | 'event_index'>
type OmittedFrame = Extract<TerminalFrame, { status: 'omitted' }>

export interface RenderedTerminalAccounting {
  readonly budget_bytes: number
  readonly retained_bytes: number
  readonly observed_frames: number
  readonly retained_frames: number
  readonly omitted_for_budget: number
  readonly omitted_for_raw_gap: number
}

export interface FrameRequest {
  readonly trigger: FrameTrigger
  readonly eventIndex?: number
}

const CHECKPOINT_TRIGGERS: ReadonlySet<FrameTrigger> = new Set(['before_event', 'after_resize', 'final'])

/**
 * Frames are taken at checkpoints (`before_event`, `after_resize`, `final`), which happen at the same points of
 * every run of a scenario and are compared, and when output went quiet (`quiet`), which depends on timing and
 * is kept for people only.
 *
 * Records rendered frames under `limits.rendered_bytes`: the UTF-8 bytes of `serialized_state` plus the visible
 * lines, cumulative over the capture (JSON encoding is not counted). A frame that does not fit is omitted.
 * Once raw output has a gap, frames are omitted too: the renderer saw only retained chunks.
 */
export class FrameRecorder {
  readonly frames: TerminalFrame[] = []
  readonly #renderer: Renderer
  readonly #journal: SequenceClock
  readonly #budgetBytes: number
  readonly #outputHasGap: () => boolean
  readonly #releaseHeldOutput: () => void
  #retainedBytes = 0
  #pending = 0
  #omittedForBudget = 0
  #omittedForGap = 0

  /**
   * `releaseHeldOutput` hands the renderer what normalization still holds back, so a frame shows every chunk
   * recorded before it.
   */
  constructor(
    renderer: Renderer,
    journal: SequenceClock,
    budgetBytes: number,
    outputHasGap: () => boolean,
    releaseHeldOutput: () => void = () => undefined,
  ) {
    this.#renderer = renderer
    this.#journal = journal
    this.#budgetBytes = budgetBytes
    this.#outputHasGap = outputHasGap
    this.#releaseHeldOutput = releaseHeldOutput
  }

  get retainedBytes(): number {
    return this.#retainedBytes
  }

  get budgetBytes(): number {
    return this.#budgetBytes
  }

  get retainedCount(): number {
    return this.frames.length - this.#pending - this.#omittedForBudget - this.#omittedForGap
  }

  /**
   * Takes a frame of the screen as it stands after every chunk recorded so far. The sequence number is
   * allotted now, so the frame shows exactly the chunks with lower sequence numbers.
   */
  async record(request: FrameRequest): Promise<TerminalFrame> {
    this.#releaseHeldOutput()
    const base: FrameBase = {
      ...this.#journal.record(),
      trigger: request.trigger,
      checkpoint: CHECKPOINT_TRIGGERS.has(request.trigger),
      event_index: request.eventIndex ?? null,
    }
    // The slot keeps the journal order while the renderer catches up; it is not counted until it is filled.
    const slot = this.frames.push(omitted(base, 'raw_terminal_gap')) - 1
    this.#pending++
    let frame: TerminalFrame
    if (this.#outputHasGap()) {
      this.#omittedForGap++
      frame = omitted(base, 'raw_terminal_gap')
    } else {
      // With no write pending the screen already reflects every retained chunk; skip xterm's async round trip.
      const screen = this.#renderer.idle
        ? this.#renderer.readScreen()
        : await this.#renderer.whenRendered(() => this.#renderer.readScreen())
      const cost = screenBytes(screen)
      if (this.#retainedBytes + cost > this.#budgetBytes) {
        this.#omittedForBudget++
        frame = omitted(base, 'rendered_bytes_budget')
      } else {
        this.#retainedBytes += cost
        frame = { ...base, status: 'retained', ...screen }
      }
    }
    this.frames[slot] = frame
    this.#pending--
    return frame
  }

  get accounting(): RenderedTerminalAccounting {
    return {
      budget_bytes: this.#budgetBytes,
      retained_bytes: this.#retainedBytes,
      observed_frames: this.frames.length,
      retained_frames: this.retainedCount,
      omitted_for_budget: this.#omittedForBudget,
      omitted_for_raw_gap: this.#omittedForGap,
    }
  }
}

function omitted(base: FrameBase, reason: FrameOmissionReason): OmittedFrame {
  return { ...base, status: 'omitted', reason }
}

export function screenBytes(screen: RenderedScreen): number {
  let bytes = Buffer.byteLength(screen.serialized_state)
  for (const line of screen.lines) {
    bytes += Buffer.byteLength(line)
  }
  return bytes
}
