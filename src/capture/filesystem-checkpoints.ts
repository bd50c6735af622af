import { classifyEffects } from '../evidence/file-effects.js'
import type { FilesystemCheckpoint } from '../evidence/schema.js'
import type { SequenceClock } from '../evidence/sequence-clock.js'
import { takeSnapshot, type FilesystemSnapshot, type SnapshotLimits } from '../filesystem/snapshot.js'
import type { ResolvedScenario } from '../scenario/resolve.js'
import type { FilesystemObservation } from './assemble-evidence.js'

/**
 * The two filesystem checkpoints of a run that selected observation paths: `before_launch`, taken before the
 * command starts and recorded first in the journal at the launch instant, and `after_settlement`.
 */
export class FilesystemCheckpoints {
  readonly #paths: readonly string[]
  readonly #limits: SnapshotLimits
  readonly #signal: AbortSignal | undefined
  readonly #checkpoints: FilesystemCheckpoint[] = []
  #before: FilesystemSnapshot | undefined
  #after: FilesystemSnapshot | undefined

  constructor(resolved: ResolvedScenario, signal: AbortSignal | undefined) {
    const { limits } = resolved.scenario
    this.#paths = resolved.observationPaths
    this.#limits = {
      fileCount: limits.file_count,
      depth: limits.filesystem_depth,
      fileBytes: limits.file_bytes,
    }
    this.#signal = signal
  }

  /** The selected paths as they stand before the command starts; nothing when no path was selected. */
  async takeBefore(): Promise<void> {
    if (this.#paths.length > 0) {
      this.#before = await takeSnapshot(this.#paths, this.#limits, this.#signal)
    }
  }

  /** Puts the before_launch checkpoint in the journal, at the launch instant. */
  recordLaunch(journal: SequenceClock): void {
    if (this.#before !== undefined) {
      this.#checkpoints.push({ ...journal.record(), name: 'before_launch' })
    }
  }

  async takeAfter(journal: SequenceClock): Promise<void> {
    if (this.#before !== undefined) {
      this.#checkpoints.push({ ...journal.record(), name: 'after_settlement' })
      this.#after = await takeSnapshot(this.#paths, this.#limits, this.#signal)
    }
  }

  /** Both checkpoints and the effects between them, or undefined when no path was selected. */
  observation(): FilesystemObservation | undefined {
    const before = this.#before
    if (before === undefined) {
      return undefined
    }
    const after = this.#after
    return {
      before,
      after,
      checkpoints: this.#checkpoints,
      effects: after === undefined ? [] : classifyEffects(before, after),
    }
  }
}
