/**
 * The data a divergence page carries (as JSON in the page) for its script: built on the Node side by
 * `page-model.ts`, read in the browser by `browser/`. No Node import here, so both sides compile
 * against the one definition.
 */

export const PAGE_DATA_FORMAT = 'rea.process-capture.page'

export type SideLabel = 'authority' | 'reconstruction' | 'capture'

export interface PageFrame {
  readonly label: string
  readonly at_ms: number
  readonly status: 'retained' | 'omitted'
  readonly reason: string | null
  readonly columns: number
  readonly rows: number
  /** Zero-based, like the Evidence. */
  readonly cursor: readonly [row: number, column: number]
  readonly state: string
}

export interface PageSide {
  readonly label: SideLabel
  readonly terminal: {
    readonly columns: number
    readonly rows: number
    readonly scrollback: number
    /** The width model the frames were rendered with; absent for the legacy one. */
    readonly width_model?: string | undefined
  }
  /** `[at_ms, code, data]` as in an asciicast v2 recording, times in milliseconds. */
  readonly stream: readonly (readonly [number, string, string])[]
  /** Checkpoint frames in order (quiet frames are not compared and not shown). */
  readonly frames: readonly PageFrame[]
}

export type CheckpointStatus = 'equal' | 'different' | 'unknown' | 'one_side' | 'single'

export interface PageCheckpoint {
  readonly label: string
  readonly status: CheckpointStatus
  /** The comparison's words for this checkpoint's difference, when it lists one. */
  readonly detail: string | null
  /** 1-based cell of the comparison's located difference in this checkpoint, when it names one. */
  readonly cell: readonly [row: number, column: number] | null
  /**
   * Where the two screens' escape sequences first part, as each side spells it (quoted by the one rule): shown
   * when the screens look the same and only the spelling differs (`ESC [31m` and `ESC [38;5;1m`).
   */
  readonly spellings: readonly [authority: string, reconstruction: string] | null
}

export interface PageData {
  readonly format: typeof PAGE_DATA_FORMAT
  readonly sides: readonly PageSide[]
  readonly checkpoints: readonly PageCheckpoint[]
  /** The checkpoint shown first: the first divergent one, else the last. */
  readonly initial_checkpoint: number
}
