import { CELL_FLAGS, type Cell } from './screen-replay.js'

/**
 * How a screen row looks, in words short enough to sit on one line of an authority's review section: each run of
 * cells drawn other than plain, as `<columns> <style> «<text>»`, runs joined by `, `.
 *
 * - `1-8 bold «Todo CLI»`: columns 1 to 8 (1-based cells; a wide glyph covers two) are bold;
 * - `8 bold red «I»`: one cell, bold, red foreground; `on blue` is a background, `on 208` a palette colour,
 *   `#ff8800` an RGB one; the first 16 colours have names (`red`, `bright-red`);
 * - `1-80 on blue «-- INSERT --»`: the text is shown without its trailing blanks, the columns say how far the run
 *   reaches; a run of blanks shows no text.
 *
 * A plain row has no notation (null). Only what shows counts: bold, dim, italic or blink on a blank cell are
 * invisible and never start a run, and a blank that looks plain between two cells of the same style joins them,
 * so a bold `Todo CLI` is one run. The notation is for people reading a diff, never parsed back.
 */
export function rowStyleNotation(row: readonly Cell[]): string | null {
  const runs = styledRuns(row)
  return runs.length === 0 ? null : runs.map(describeRun).join(', ')
}

/** Cells in one run share a style (its words); `last` is the last column the run covers, 1-based. */
interface StyledRun {
  readonly style: string
  readonly first: number
  last: number
  text: string
}

function styledRuns(row: readonly Cell[]): StyledRun[] {
  const runs: StyledRun[] = []
  // A blank that looks plain, kept back until it is known whether a run of the same style follows it.
  let gap: { first: number; text: string } | null = null
  let previous: StyledRun | undefined
  row.forEach((cell, index) => {
    const [chars, width] = cell
    if (width === 0) {
      // The right half of a wide glyph: its left half already covers it.
      return
    }
    const column = index + 1
    const shown = chars === '' ? ' ' : chars
    const last = column + width - 1
    const style = styleWords(cell)
    if (style === '') {
      previous = undefined
      if (isBlank(cell) && runs.length > 0) {
        gap = gap === null ? { first: column, text: shown } : { first: gap.first, text: gap.text + shown }
      } else {
        gap = null
      }
      return
    }
    const before = runs.at(-1)
    if (previous !== undefined && previous.style === style) {
      previous.last = last
      previous.text += shown
    } else if (
      gap !== null &&
      before !== undefined &&
      before.style === style &&
      before.last + 1 === gap.first
    ) {
      before.last = last
      before.text += gap.text + shown
      previous = before
    } else {
      previous = { style, first: column, last, text: shown }
      runs.push(previous)
    }
    gap = null
  })
  return runs
}

function describeRun(run: StyledRun): string {
  const columns = run.first === run.last ? `${run.first}` : `${run.first}-${run.last}`
  const text = run.text.trimEnd()
  return text === '' ? `${columns} ${run.style}` : `${columns} ${run.style} «${text}»`
}

/** Attributes in the order people name them; `strikethrough` is shortened, as terminals' manuals do. */
const ATTRIBUTE_WORDS: readonly (readonly [keyof typeof CELL_FLAGS, string])[] = [
  ['bold', 'bold'],
  ['dim', 'dim'],
  ['italic', 'italic'],
  ['underline', 'underline'],
  ['strikethrough', 'strike'],
  ['overline', 'overline'],
  ['blink', 'blink'],
  ['inverse', 'inverse'],
  ['invisible', 'invisible'],
]
/** What shows on a blank cell: lines drawn across it, and inverse (its foreground becomes a block). */
const BLANK_VISIBLE: ReadonlySet<keyof typeof CELL_FLAGS> = new Set([
  'underline',
  'strikethrough',
  'overline',
  'inverse',
])

/** The style of a cell in words (`bold red on blue`), or '' for a cell that looks plain. */
function styleWords(cell: Cell): string {
  const [, , fg, bg, flags] = cell
  const blank = isBlank(cell)
  const words = ATTRIBUTE_WORDS.filter(
    ([flag]) => (flags & CELL_FLAGS[flag]) !== 0 && (!blank || BLANK_VISIBLE.has(flag)),
  ).map(([, word]) => word)
  // A blank shows its foreground only through a line or inverse.
  if (fg !== null && (!blank || words.length > 0)) {
    words.push(colourName(fg))
  }
  if (bg !== null) {
    words.push(`on ${colourName(bg)}`)
  }
  return words.join(' ')
}

/** A space or an untouched cell; invisible text is not blank here: the row's text shows it, so its style must. */
function isBlank([chars]: Cell): boolean {
  return chars === '' || chars === ' '
}

const COLOUR_NAMES = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'] as const

/** `red`, `bright-red`, `208` or `#ff8800`. */
function colourName(colour: number | string): string {
  if (typeof colour === 'string') {
    return colour
  }
  if (colour < 8) {
    return COLOUR_NAMES[colour] ?? String(colour)
  }
  if (colour < 16) {
    return `bright-${COLOUR_NAMES[colour - 8] ?? String(colour)}`
  }
  return String(colour)
}
