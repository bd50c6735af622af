import { cursorHidden, type XtermTerminal } from './xterm.js'

type XtermLine = NonNullable<ReturnType<XtermTerminal['buffer']['active']['getLine']>>
type XtermCell = NonNullable<ReturnType<XtermLine['getCell']>>

/** Where the cursor stands and whether it is shown; what a recorder needs to find the field a person types into. */
export interface CursorState {
  readonly row: number
  readonly column: number
  /** False when the program hid the cursor (DECTCEM); true where this xterm does not say. */
  readonly visible: boolean
  /** Whether the alternate screen (a full-screen program's) is active. */
  readonly alternate: boolean
}

export function readCursorState(terminal: XtermTerminal): CursorState {
  const buffer = terminal.buffer.active
  return {
    row: buffer.cursorY,
    column: buffer.cursorX,
    visible: cursorHidden(terminal) !== true,
    alternate: buffer.type === 'alternate',
  }
}

/**
 * Every visible row as drawn (up to its last written cell), with the cells a program draws as a cursor of its own
 * written as blanks: inverse, concealed or on a background colour (clack's `_`, Ink's and Enquirer's blank
 * block). Prompt libraries that hide the terminal's cursor draw one like this at the end of the field; a typed
 * character would otherwise seem followed by one the person never typed.
 */
export function readRowsWithoutCursorCells(terminal: XtermTerminal): string[] {
  const buffer = terminal.buffer.active
  const rows: string[] = []
  let cell: XtermCell | undefined
  for (let row = 0; row < terminal.rows; row++) {
    const line = buffer.getLine(buffer.viewportY + row)
    if (line === undefined) {
      rows.push('')
      continue
    }
    let text = ''
    let blanks = ''
    for (let column = 0; column < line.length; column++) {
      cell = line.getCell(column, cell)
      if (cell === undefined || cell.getWidth() === 0) {
        continue
      }
      const chars = cell.getChars()
      if (chars === '' || drawnAsCursor(cell)) {
        // Kept only when text follows: a row ends at its last drawn character.
        blanks += ' '.repeat(cell.getWidth())
        continue
      }
      text += blanks + chars
      blanks = ''
    }
    rows.push(text)
  }
  return rows
}

function drawnAsCursor(cell: XtermCell): boolean {
  return cell.isInverse() !== 0 || cell.isInvisible() !== 0 || !cell.isBgDefault()
}
