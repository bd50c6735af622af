import { rowStyleNotation } from '../screen/row-styles.js'
import { replayScreen } from '../screen/screen-replay.js'
import { widthModelOf } from '../scenario/terminal-model.js'
import type { Evidence, TerminalFrame } from './schema.js'

type ContractTerminal = Evidence['commitments']['comparison_contract']['value']['terminal']

/**
 * A select graphic rendition that sets something: only a frame whose state holds one can show a styled cell. The
 * serializer writes none for a plain screen, so reading an authority of a program without colour never loads
 * the terminal model.
 */
// eslint-disable-next-line no-control-regex -- the escape character starts what is looked for
const STYLING_SGR = /\x1b\[(?!0?m)[\d;:]*m/

/**
 * How the styled rows of a frame look, one entry per styled row, `<row>: <notation>` (row 1 is the first line of
 * the frame): the frame's serialized state is redrawn under the width model it was rendered with, and each row's
 * cells read back (`rowStyleNotation`). Empty for a plain screen.
 */
export function screenStyles(
  frame: Extract<TerminalFrame, { status: 'retained' }>,
  terminal: ContractTerminal,
): string[] {
  if (!STYLING_SGR.test(frame.serialized_state)) {
    return []
  }
  const screen = replayScreen({
    columns: frame.columns,
    rows: frame.rows,
    scrollback: terminal.scrollback,
    state: frame.serialized_state,
    widthModel: widthModelOf(terminal),
  })
  return screen.rows.flatMap((row, index) => {
    const notation = rowStyleNotation(row)
    return notation === null ? [] : [`${index + 1}: ${notation}`]
  })
}
