import type { CaptureProcessOptions } from '../capture/capture-process.js'
import { createProgressWriter } from './progress-writer.js'
import { createStatusLine } from './status-line.js'

/** What `--progress` asks for; false is `--no-progress`. */
export type ProgressMode = 'auto' | 'json' | false

export interface ProgressChoice {
  readonly options: Pick<CaptureProcessOptions, 'onProgress' | 'onStatus'>
  /** Erases the status line, if one was drawn; called when the capture has ended, whatever the outcome. */
  readonly end: () => void
}

/**
 * How a capture's progress reaches stderr: on a terminal (`auto`), one status line for a person, redrawn in place
 * and erased at the end; anywhere else, or with `json`, the documented JSON lines (docs/progress.md); with
 * `--no-progress`, nothing. A `dumb` terminal cannot erase a line, so it gets the JSON lines.
 */
export function chooseProgress(
  mode: ProgressMode,
  stream: NodeJS.WriteStream,
  command: readonly string[],
): ProgressChoice {
  if (mode === false) {
    return { options: {}, end: () => undefined }
  }
  if (mode === 'auto' && stream.isTTY && process.env['TERM'] !== 'dumb') {
    const line = createStatusLine(stream, command)
    return { options: { onStatus: line.onStatus }, end: () => line.stop() }
  }
  return { options: { onProgress: createProgressWriter(stream) }, end: () => undefined }
}
