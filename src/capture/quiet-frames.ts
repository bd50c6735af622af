import type { FrameRecorder } from '../terminal/frame-recorder.js'

/** A frame for people is taken when output has been quiet this long. */
export const QUIET_FRAME_MS = 250

/**
 * Takes a `quiet` frame when output paused for {@link QUIET_FRAME_MS}. Quiet frames are timing-dependent and
 * never compared, so they stop once half the rendered budget is used, keeping room for checkpoint frames.
 */
export function watchForQuiet(frames: FrameRecorder, hasGap: () => boolean, onFrame: () => void) {
  let timer: NodeJS.Timeout | undefined
  const clear = (): void => {
    if (timer !== undefined) {
      clearTimeout(timer)
      timer = undefined
    }
  }
  return {
    noteOutput(): void {
      clear()
      if (hasGap() || frames.retainedBytes * 2 >= frames.budgetBytes) {
        return
      }
      timer = setTimeout(() => {
        timer = undefined
        void frames.record({ trigger: 'quiet' }).then(onFrame)
      }, QUIET_FRAME_MS)
    },
    dispose: clear,
  }
}
