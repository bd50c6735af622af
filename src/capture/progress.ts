import { monotonicNow } from '../internal/monotonic-clock.js'

/** The observed lifecycle stage of a capture. */
export type CapturePhase = 'prepare' | 'running' | 'settling' | 'cleanup'

/** How a capture ended, as the terminal progress line and `Evidence.disposition` report it. */
export type CaptureDisposition = 'exited' | 'timeout' | 'idle_timeout' | 'cancelled' | 'failed'

export type OwnedProcessCleanupState = 'not_needed' | 'completed' | 'incomplete' | 'unsupported'
export type RendererCleanupState = 'disposed' | 'not_created'
export type TemporaryRootCleanupState = 'removed' | 'not_created' | 'failed'

export interface CleanupStates {
  readonly owned_processes: OwnedProcessCleanupState
  readonly renderer: RendererCleanupState
  readonly temporary_root: TemporaryRootCleanupState
}

/** One live status record; the CLI writes each as `{"rea_progress": …}` on its own stderr line. */
export interface ProgressRecord {
  readonly phase: CapturePhase
  /** Collected terminal frames + process samples + interaction events. */
  readonly completed: number
  /** Always null: REA does not invent a unit total or a percentage. */
  readonly total: null
  /** `elapsed_ms=… frames=… samples=… interactions=…`; never child output. */
  readonly message: string
  /** 1 for the first record of a capture, then +1 per record delivered. */
  readonly sequence: number
  readonly terminal?: true
  readonly disposition?: CaptureDisposition
  readonly cleanup?: CleanupStates
}

export interface ProgressCounts {
  readonly frames: number
  readonly samples: number
  readonly interactions: number
}

/** At most one intermediate record per this interval; the terminal record is never delayed. */
export const PROGRESS_INTERVAL_MS = 100
/** A record is sent at this interval even when nothing changed, so a silent run still shows it is alive. */
export const PROGRESS_HEARTBEAT_MS = 1000

/**
 * Turns lifecycle updates into rate-limited progress records. Updates arriving faster than the interval are
 * merged into the latest status; a pending intermediate update is discarded when the terminal record is sent.
 */
export class ProgressReporter {
  readonly #deliver: ((record: ProgressRecord) => void) | undefined
  readonly #elapsedMs: () => number
  #phase: CapturePhase = 'prepare'
  #counts: ProgressCounts = { frames: 0, samples: 0, interactions: 0 }
  #sequence = 0
  #lastSentAt = -Infinity
  #timer: NodeJS.Timeout | undefined
  #finished = false

  constructor(deliver: ((record: ProgressRecord) => void) | undefined, elapsedMs: () => number) {
    this.#deliver = deliver
    this.#elapsedMs = elapsedMs
  }

  update(phase: CapturePhase, counts?: ProgressCounts): void {
    if (this.#deliver === undefined || this.#finished) {
      return
    }
    this.#phase = phase
    this.#counts = counts ?? this.#counts
    this.#schedule(0)
  }

  finish(disposition: CaptureDisposition, cleanup: CleanupStates, counts?: ProgressCounts): void {
    if (this.#deliver === undefined || this.#finished) {
      return
    }
    this.#finished = true
    this.#clearTimer()
    this.#counts = counts ?? this.#counts
    this.#send({ phase: 'cleanup', terminal: true, disposition, cleanup })
  }

  /** Stops timers without a terminal record (used only when the capture throws). */
  dispose(): void {
    this.#finished = true
    this.#clearTimer()
  }

  #schedule(minimumDelayMs: number): void {
    const sinceLast = monotonicNow() - this.#lastSentAt
    const delayMs = Math.max(minimumDelayMs, PROGRESS_INTERVAL_MS - sinceLast)
    if (delayMs <= 0) {
      this.#clearTimer()
      this.#send({ phase: this.#phase })
      return
    }
    if (this.#timer === undefined || minimumDelayMs === 0) {
      this.#clearTimer()
      this.#timer = setTimeout(() => {
        this.#timer = undefined
        this.#send({ phase: this.#phase })
      }, delayMs)
      this.#timer.unref()
    }
  }

  #send(fields: Pick<ProgressRecord, 'phase' | 'terminal' | 'disposition' | 'cleanup'>): void {
    this.#lastSentAt = monotonicNow()
    const { frames, samples, interactions } = this.#counts
    const record: ProgressRecord = {
      phase: fields.phase,
      completed: frames + samples + interactions,
      total: null,
      message: `elapsed_ms=${this.#elapsedMs()} frames=${frames} samples=${samples} interactions=${interactions}`,
      sequence: ++this.#sequence,
      ...(fields.terminal === undefined ? {} : { terminal: fields.terminal }),
      ...(fields.disposition === undefined ? {} : { disposition: fields.disposition }),
      ...(fields.cleanup === undefined ? {} : { cleanup: fields.cleanup }),
    }
    this.#deliver?.(record)
    if (!this.#finished) {
      this.#schedule(PROGRESS_HEARTBEAT_MS)
    }
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer)
      this.#timer = undefined
    }
  }
}
