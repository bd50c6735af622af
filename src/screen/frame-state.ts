/**
 * How the serialize addon (0.14.0) writes a frame whose alternate buffer is on screen: the normal buffer, the
 * attributes the program had set when the frame was taken, this switch, then the alternate buffer's cells spelled
 * as changes from default attributes. Nothing resets the attributes in between.
 */
const ALTERNATE_SWITCH = '\x1b[?1049h\x1b[H'
const RESET_ATTRIBUTES = '\x1b[0m'

/**
 * A frame's serialized state as it must be written to redraw the screen REA had. Written as recorded, the
 * attributes in force at the switch carry over onto every alternate-buffer cell the addon spelled as plain:
 * neovim, which leaves reverse bold set after drawing its status line, redraws with its whole text reverse and
 * bold. A reset right after the switch removes that; the rest is unchanged. Recorded frames keep the addon's
 * spelling (a `stream` comparison compares it byte for byte, so Evidence made before this compares as it did);
 * every redraw of a frame goes through here. The normal buffer's cells never hold an escape, so the first switch
 * is the one the addon wrote.
 */
export function redrawableState(state: string): string {
  const switchAt = state.indexOf(ALTERNATE_SWITCH)
  if (switchAt === -1) {
    return state
  }
  const after = switchAt + ALTERNATE_SWITCH.length
  return `${state.slice(0, after)}${RESET_ATTRIBUTES}${state.slice(after)}`
}
