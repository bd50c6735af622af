import type { SequenceClock } from '../evidence/sequence-clock.js'
import type { ProcessSample } from '../evidence/schema.js'
import type { OwnedTree, TreeObservation } from './owned-tree.js'
import { monotonicNow } from '../internal/monotonic-clock.js'

/** Sampling interval while the command runs; slower when one observation is costly (a host with many processes). */
export const SAMPLE_INTERVAL_MS = 50
/** Keep sampling from taking more than about a tenth of one core. */
const SAMPLE_COST_FACTOR = 10

export interface ProcessAccounting {
  readonly sample_limit: number
  readonly samples_retained: number
  readonly limit_reached: boolean
  readonly partial: boolean
}

/**
 * Samples the owned process tree while the command runs and records each sample in the journal, up to
 * `limits.process_samples`. Past the limit REA keeps observing (cleanup still needs the lineage) but keeps no
 * more samples, and the accounting says so.
 */
export class ProcessSampler {
  readonly samples: ProcessSample[] = []
  readonly #tree: OwnedTree
  readonly #journal: SequenceClock
  readonly #limit: number
  readonly #onSample: (count: number) => void
  #limitReached = false
  #timer: NodeJS.Timeout | undefined
  #inFlight: Promise<unknown> = Promise.resolve()
  #stopped = false

  constructor(tree: OwnedTree, journal: SequenceClock, limit: number, onSample: (count: number) => void) {
    this.#tree = tree
    this.#journal = journal
    this.#limit = limit
    this.#onSample = onSample
  }

  /** Starts periodic sampling with a first sample now. */
  start(): void {
    if (!this.#stopped) {
      void this.#tick()
    }
  }

  /** Stops periodic sampling once a sample in flight is recorded; explicit samples can still be taken. */
  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#timer)
    await this.#inFlight
  }

  /** Observes the tree and records the observation as a sample. */
  async sample(options: { readonly includeSession: boolean }): Promise<TreeObservation> {
    const observation = await this.#tree.observe(options)
    this.#record(observation)
    return observation
  }

  get accounting(): ProcessAccounting {
    return {
      sample_limit: this.#limit,
      samples_retained: this.samples.length,
      limit_reached: this.#limitReached,
      partial: this.#limitReached,
    }
  }

  async #tick(): Promise<void> {
    const startedAt = monotonicNow()
    const sampling = this.sample({ includeSession: false })
    this.#inFlight = sampling
    await sampling
    this.#scheduleNext(monotonicNow() - startedAt)
  }

  #scheduleNext(lastCostMs: number): void {
    if (!this.#stopped) {
      this.#timer = setTimeout(
        () => void this.#tick(),
        Math.max(SAMPLE_INTERVAL_MS, lastCostMs * SAMPLE_COST_FACTOR),
      )
    }
  }

  #record(observation: TreeObservation): void {
    if (this.samples.length >= this.#limit) {
      this.#limitReached = true
      return
    }
    this.samples.push({
      ...this.#journal.record(),
      processes: observation.owned
        .map(({ identity, stat, attribution }) => ({
          pid: identity.pid,
          ppid: stat.ppid,
          pgid: stat.pgid,
          sid: stat.sid,
          start_ticks: identity.start_ticks,
          command: stat.comm,
          state: stat.state,
          attribution,
        }))
        .sort((a, b) => a.pid - b.pid),
    })
    this.#onSample(this.samples.length)
  }
}
