import type { OutputRecorder } from '../terminal/output-recorder.js'
import { monotonicNow } from '../internal/monotonic-clock.js'

/**
 * Text the stream rules hold back (a path or a time that may go on in the next read) is released as it stands
 * once output has been quiet this long: a prompt waits for input, and waits and screens need its text.
 */
export const HELD_OUTPUT_RELEASE_MS = 10

/**
 * Releases held text when the output goes quiet. The check runs after the next poll for input (in a
 * `setImmediate`), so output that arrived while this process was not scheduled is read first and a value is
 * not cut only because the machine was slow; nor is it while the reader is paused for the renderer.
 */
export function releaseWhenQuiet(recorder: OutputRecorder, readerPaused: () => boolean) {
  let timer: NodeJS.Timeout | undefined
  let immediate: NodeJS.Immediate | undefined
  let lastOutputAt = 0
  const arm = (delayMs: number): void => {
    timer = setTimeout(() => {
      timer = undefined
      const seenAt = lastOutputAt
      immediate = setImmediate(() => {
        immediate = undefined
        if ((recorder.stream?.heldCharacters ?? 0) === 0) {
          return
        }
        const quietForMs = monotonicNow() - lastOutputAt
        if (lastOutputAt !== seenAt || quietForMs < HELD_OUTPUT_RELEASE_MS || readerPaused()) {
          arm(Math.max(1, HELD_OUTPUT_RELEASE_MS - quietForMs))
          return
        }
        recorder.releaseHeld()
      })
    }, delayMs)
  }
  return {
    noteOutput(): void {
      lastOutputAt = monotonicNow()
      const held = recorder.stream?.heldCharacters ?? 0
      if (held > 0 && timer === undefined && immediate === undefined) {
        arm(HELD_OUTPUT_RELEASE_MS)
      }
    },
    dispose(): void {
      if (timer !== undefined) {
        clearTimeout(timer)
        timer = undefined
      }
      if (immediate !== undefined) {
        clearImmediate(immediate)
        immediate = undefined
      }
    },
  }
}
