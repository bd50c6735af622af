import { replayScreen, type ScreenSource } from '../screen/screen-replay.js'

export { CELL_FLAGS } from '../screen/screen-replay.js'
export type { Cell, ScreenCells, ScreenSource } from '../screen/screen-replay.js'

/**
 * Renders frames with @xterm/headless, the emulator REA captures with, under the width model each was rendered
 * with, and returns their visible cells and cursor. Synchronous, so a matcher can attach a picture of them
 * before its test ends.
 */
export function readScreenCells(sources: readonly ScreenSource[]): ReturnType<typeof replayScreen>[] {
  return sources.map((source) => replayScreen(source))
}
