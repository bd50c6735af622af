import { escapeControlCharacters } from '../internal/escape-controls.js'
import type { ScreenCells } from '../screen/screen-replay.js'
import { renderSideBySide, type FirstChange } from '../view/screens-side-by-side.js'
import { describeDimensions, describeTest, type PendingEntry } from './pending-report.js'
import type { ReviewDiffLine } from './review-diff.js'

/** One checkpoint of both captures, paired by position: what the screens showed there. */
export interface CheckpointPair {
  readonly label: string
  readonly authority: ScreenCells | null
  readonly pending: ScreenCells | null
}

/** Everything one frame of `rea review` shows; the session keeps it and changes what the keys change. */
export interface ReviewScreenModel {
  readonly position: number
  readonly total: number
  readonly entry: PendingEntry
  readonly checkpoints: readonly CheckpointPair[]
  readonly checkpoint: number
  /** The review-section diff, changed lines with one line of context, and the whole section (`d`). */
  readonly diff: readonly ReviewDiffLine[]
  readonly fullDiff: readonly ReviewDiffLine[]
  readonly view: 'screens' | 'diff' | 'help'
  /** The first line of the full diff shown. */
  readonly scroll: number
  /** What the last key did (`accepted …`), shown above the keys. */
  readonly status: string
}

export const KEYS_LINE = 'a accept  r reject  s skip  A/R/S all left  d diff  ←/→ screen  ? help  q quit'

const HELP = [
  'a  accept: the pending capture becomes the authority (written whole), and the pending file is removed',
  'r  reject: the pending file is removed, the authority stays as it is',
  's  skip: leave both as they are for now',
  'A R S  the same for this one and every one left',
  'd  the whole review-section diff, or the screens again (↑/↓, PgUp/PgDn scroll)',
  '←/→  the previous or next checkpoint screen',
  'q  quit (what was not decided stays pending); ?  this help',
]

/** The smallest terminal the review draws in; below it, it asks for more room. */
const MIN_COLUMNS = 40
const MIN_ROWS = 10

/**
 * One frame of the review, exactly `rows` lines of at most `columns` cells: the test and where it stands, each
 * dimension's verdict, the two screens side by side (authority left, pending right) with changed cells marked and
 * the first change in words, the review-section diff, the last action and the keys. Fits 80×24; larger
 * terminals show more of the screens and the diff.
 */
export function reviewScreenLines(
  model: ReviewScreenModel,
  columns: number,
  rows: number,
  colour: boolean,
): string[] {
  const paint = painter(colour)
  if (columns < MIN_COLUMNS || rows < MIN_ROWS) {
    return fill([fit(`need ${MIN_COLUMNS}×${MIN_ROWS} (have ${columns}×${rows})`, columns)], rows, columns)
  }
  const entry = model.entry
  const head = [
    paint.bold(fit(`rea review ${model.position}/${model.total} · ${describeTest(entry)}`, columns)),
    fit(`${entry.verdict ?? 'not compared'}: ${describeDimensions(entry)}`, columns),
    ...(entry.problem === null
      ? []
      : [paint.red(fit(`${entry.state.replace('_', ' ')}: ${entry.problem.split('\n')[0] ?? ''}`, columns))]),
  ]
  const foot = [paint.dim(fit(model.status, columns)), paint.reverse(fit(KEYS_LINE, columns))]
  const space = rows - head.length - foot.length
  const body =
    model.view === 'help'
      ? HELP.map((line) => fit(line, columns)).slice(0, space)
      : model.view === 'diff'
        ? diffLines(
            model.fullDiff.slice(model.scroll),
            space,
            columns,
            paint,
            'review section, whole (d: screens)',
          )
        : screensBody(model, columns, space, colour, paint)
  return [...head, ...fill(body, space, columns), ...foot]
}

function screensBody(
  model: ReviewScreenModel,
  columns: number,
  space: number,
  colour: boolean,
  paint: Painter,
): string[] {
  const pair = model.checkpoints[model.checkpoint]
  const diffNeeded = Math.min(model.diff.length + 1, 5)
  // The screens' label and the first change take a line each.
  const screenSpace = Math.max(1, space - 2 - diffNeeded)
  const drawn = renderSideBySide({
    left: pair?.authority ?? null,
    right: pair?.pending ?? null,
    width: columns,
    height: screenSpace,
    colour,
  })
  const side = Math.floor((columns - 3) / 2)
  const where = `${model.checkpoint + 1}/${model.checkpoints.length} ${pair?.label ?? 'no screen'}`
  const label = `${fit(`authority · ${where}`, side)} │ ${fit('pending', side)}`
  const lines = [paint.dim(label), ...drawn.lines, fit(describeChange(drawn.firstChange, pair), columns)]
  const left = space - lines.length
  return [...lines, ...diffLines(model.diff, left, columns, paint, 'review section (d: whole)')]
}

function describeChange(change: FirstChange | null, pair: CheckpointPair | undefined): string {
  if (pair === undefined) {
    return 'Neither capture has a checkpoint screen.'
  }
  if (change === null) {
    return 'These screens look the same.'
  }
  const columns =
    change.first === change.last ? `column ${change.first}` : `columns ${change.first}-${change.last}`
  return `first change: row ${change.row}, ${columns}: ${change.before} → ${change.after}`
}

function diffLines(
  diff: readonly ReviewDiffLine[],
  space: number,
  columns: number,
  paint: Painter,
  title: string,
): string[] {
  if (space <= 0) {
    return []
  }
  if (diff.length === 0) {
    return [fit('The review sections are the same: only the Evidence differs (times, ids).', columns)]
  }
  const shown = diff.slice(0, space - 1).map((line) => {
    const text = fit(
      `${line.kind === '@' ? '' : line.kind}${line.text.trimStart() === line.text ? line.text : ` ${line.text.trim()}`}`,
      columns,
    )
    return line.kind === '-' ? paint.red(text) : line.kind === '+' ? paint.green(text) : paint.dim(text)
  })
  const more = diff.length - shown.length
  return [paint.dim(fit(`${title}${more > 0 ? `, ${more} more lines` : ''}:`, columns)), ...shown]
}

interface Painter {
  readonly bold: (text: string) => string
  readonly dim: (text: string) => string
  readonly red: (text: string) => string
  readonly green: (text: string) => string
  readonly reverse: (text: string) => string
}

function painter(colour: boolean): Painter {
  const sgr = (code: string) => (text: string) => `\x1b[${code}m${text}\x1b[0m`
  return colour
    ? { bold: sgr('1'), dim: sgr('2'), red: sgr('31'), green: sgr('32'), reverse: sgr('7') }
    : { bold: sgr('1'), dim: (text) => text, red: (text) => text, green: (text) => text, reverse: sgr('7') }
}

function fill(lines: readonly string[], rows: number, columns: number): string[] {
  const blank = ' '.repeat(columns)
  return [...lines.slice(0, rows), ...Array.from({ length: Math.max(0, rows - lines.length) }, () => blank)]
}

/**
 * Text made safe for the terminal (control characters shown, never obeyed) and cut or padded to `width` cells:
 * wide East Asian characters and emoji take two cells, combining marks none.
 */
export function fit(text: string, width: number): string {
  let result = ''
  let used = 0
  for (const character of escapeControlCharacters(text)) {
    const cells = cellsOf(character)
    if (used + cells > width) {
      break
    }
    result += character
    used += cells
  }
  return result + ' '.repeat(Math.max(0, width - used))
}

const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|\p{Emoji_Presentation}/u
const ZERO = /\p{M}|\p{Cf}|\p{Variation_Selector}/u

function cellsOf(character: string): number {
  return ZERO.test(character) ? 0 : WIDE.test(character) ? 2 : 1
}
