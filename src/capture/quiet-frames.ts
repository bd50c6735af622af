import type { FrameRecorder } from '../terminal/frame-recorder.js'
import { monotonicNow } from '../internal/monotonic-clock.js'

/** A frame for people is taken when output has been quiet this long. */
export const QUIET_FRAME_MS = 250

/**
 * Takes a `quiet` frame when output paused for {@link QUIET_FRAME_MS}. Quiet frames are timing-dependent and
 * never compared, so they stop once half the rendered budget is used, keeping room for checkpoint frames.
 */
export function watchForQuiet(frames: FrameRecorder, hasGap: () => boolean, onFrame: () => void) {
  let timer: NodeJS.Timeout | undefined
  let lastOutputAt = 0
  const stopped = (): boolean => hasGap() || frames.retainedBytes * 2 >= frames.budgetBytes
  // One timer per quiet period, not per read: reads only note the time, and the timer re-arms for the rest.
  const check = (): void => {
    timer = undefined
    const quietForMs = monotonicNow() - lastOutputAt
    if (stopped()) {
      return
    }
    if (quietForMs < QUIET_FRAME_MS) {
      timer = setTimeout(check, QUIET_FRAME_MS - quietForMs)
      return
    }
    void frames.record({ trigger: 'quiet' }).then(onFrame)
  }
  return {
    noteOutput(): void {
      lastOutputAt = monotonicNow()
      if (timer === undefined && !stopped()) {
        timer = setTimeout(check, QUIET_FRAME_MS)
      }
    },
    dispose(): void {
      if (timer !== undefined) {
        clearTimeout(timer)
        timer = undefined
      }
    },
  }
}
