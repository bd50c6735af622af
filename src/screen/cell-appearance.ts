import { CELL_FLAGS, type Cell } from './screen-replay.js'

/** Attributes that change how text looks; on a blank cell none of them shows. */
const TEXT_FLAGS: readonly (keyof typeof CELL_FLAGS)[] = ['bold', 'dim', 'italic', 'blink']
/** Lines drawn across a cell: they show on a blank too, in the foreground colour. */
const LINE_FLAGS: readonly (keyof typeof CELL_FLAGS)[] = ['underline', 'strikethrough', 'overline']

/**
 * What a cell looks like, as a key: two cells with the same key look the same on screen. The cell is read after
 * the program's output was parsed, so every spelling of the same attributes (`ESC [ 0 m ESC [ 01 ; 34 m` and
 * `ESC [ 1 ; 34 m`, `34` and `38 ; 5 ; 4`) already gave the same cell. On top of that:
 * - a blank (a space the program wrote, or a cell it never touched) shows only its background and the lines drawn
 *   across it (underline, strikethrough, overline), so bold, dim, italic and blink on a blank are not compared;
 * - inverse video swaps the colours, and the swapped colours are what is compared;
 * - invisible text (`ESC [ 8 m`) shows as a blank.
 * A width-0 cell is the right half of a wide character, which its left half already describes.
 */
export function cellAppearance(cell: Cell): string {
  const [chars, width, , , flags] = cell
  if (width === 0) {
    return ''
  }
  const { foreground, background } = shownColours(cell)
  const lines = LINE_FLAGS.filter((name) => (flags & CELL_FLAGS[name]) !== 0)
  const lineText = lines.length === 0 ? '' : `|${lines.join(',')}:${foreground}`
  if (isBlank(cell)) {
    return `blank|bg:${background}${lineText}`
  }
  const text = TEXT_FLAGS.filter((name) => (flags & CELL_FLAGS[name]) !== 0)
  return `${chars}|${width}|fg:${foreground}|bg:${background}|${text.join(',')}${lineText}`
}

/** A cell for people: `"a" bold fg 4`, `blank bg #ff0000`, `untouched`. */
export function describeCell(cell: Cell | undefined): string {
  if (cell === undefined) {
    return 'no cell'
  }
  const [chars, , fg, bg, flags] = cell
  const names = (Object.keys(CELL_FLAGS) as (keyof typeof CELL_FLAGS)[]).filter(
    (name) => (flags & CELL_FLAGS[name]) !== 0,
  )
  const parts = [
    isBlank(cell) ? 'blank' : JSON.stringify(chars),
    ...names,
    ...(fg === null ? [] : [`fg ${fg}`]),
    ...(bg === null ? [] : [`bg ${bg}`]),
  ]
  return parts.length === 1 && parts[0] === 'blank' && chars === '' ? 'untouched' : parts.join(' ')
}

function isBlank([chars, , , , flags]: Cell): boolean {
  return chars === '' || chars === ' ' || (flags & CELL_FLAGS.invisible) !== 0
}

/** The colours the cell is drawn in; `fg`/`bg` name the terminal's default foreground and background. */
function shownColours([, , fg, bg, flags]: Cell): { foreground: string; background: string } {
  const foreground = fg === null ? 'fg' : String(fg)
  const background = bg === null ? 'bg' : String(bg)
  return (flags & CELL_FLAGS.inverse) === 0
    ? { foreground, background }
    : { foreground: background, background: foreground }
}
