import type { ScreenSnapshot } from './timeline.js'

/**
 * How long the program must have been quiet for a screen read at the person's next key to count as settled. A
 * prompt library writes a redraw in a burst of writes (cursor move, erase, line), which can reach the recorder in
 * separate reads; a screen read within the burst shows part of it. A fast typist's keys come 10 ms apart.
 */
export const SETTLED_QUIET_MS = 20

/**
 * Whether `now` is a screen read in the middle of a redraw of the prompt that `start` showed: every row from the
 * top down to the lower of the two cursors holds no more than the beginning of what `start` drew there, and at
 * least one holds less (blank included). Prompt libraries redraw by erasing first (`ESC[2K ESC[G`, clack's erase
 * down) and drawing after, sometimes in separate writes; a fast typist's next key makes the recorder read the
 * screen between the two. Such a screen says nothing about the field: not that nothing was drawn for the key (a
 * secret), nor that the prompt is gone (the field ended). A program that erases its prompt for good looks the same
 * for every key, so its field is judged from no evidence: uncertain, hence secret.
 */
export function readMidRedraw(start: ScreenSnapshot, now: ScreenSnapshot): boolean {
  const last = Math.max(start.cursor.row, now.cursor.row)
  let erased = false
  for (let index = 0; index <= last; index++) {
    const before = (start.textRows[index] ?? '').trimEnd()
    const after = (now.textRows[index] ?? '').trimEnd()
    if (!before.startsWith(after)) {
      // Something the start did not hold was drawn: the program is past its erase.
      return false
    }
    erased ||= after.length < before.length
  }
  return erased
}
