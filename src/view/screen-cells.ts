import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'

/** One cell as xterm's buffer API reports it: text, width, colours (palette index or `#rrggbb`; null = default), flags. */
export type Cell = readonly [
  chars: string,
  width: number,
  fg: number | string | null,
  bg: number | string | null,
  flags: number,
]

export const CELL_FLAGS = {
  bold: 1,
  italic: 2,
  dim: 4,
  underline: 8,
  inverse: 16,
  invisible: 32,
  strikethrough: 64,
  blink: 128,
  overline: 256,
} as const

export interface ScreenCells {
  /** Visible rows, each `columns` cells long. */
  readonly rows: readonly (readonly Cell[])[]
  /** Zero-based. */
  readonly cursor: readonly [row: number, column: number]
}

export interface ScreenSource {
  readonly columns: number
  readonly rows: number
  readonly scrollback: number
  /** A frame's serialized_state. */
  readonly state: string
}

// Plain JavaScript run by a child Node process: xterm parses asynchronously, and a matcher that must annotate
// its test before it throws cannot wait for a promise. The child uses only xterm's public API.
const CHILD_SCRIPT = String.raw`
const { Terminal } = require(process.argv[1])
let input = ''
process.stdin.setEncoding('utf8').on('data', (text) => (input += text)).on('end', async () => {
  const color = (isDefault, isRgb, value) => (isDefault ? null : isRgb ? '#' + value.toString(16).padStart(6, '0') : value)
  const screens = []
  for (const source of JSON.parse(input)) {
    const terminal = new Terminal({ cols: source.columns, rows: source.rows, scrollback: source.scrollback, allowProposedApi: true, logLevel: 'off' })
    await new Promise((resolve) => terminal.write(source.state, resolve))
    const buffer = terminal.buffer.active
    const scratch = buffer.getNullCell()
    const rows = []
    for (let y = 0; y < source.rows; y++) {
      const line = buffer.getLine(buffer.viewportY + y)
      const row = []
      for (let x = 0; x < source.columns; x++) {
        const cell = line && line.getCell(x, scratch)
        if (!cell) { row.push(['', 1, null, null, 0]); continue }
        const flags = (cell.isBold() ? 1 : 0) | (cell.isItalic() ? 2 : 0) | (cell.isDim() ? 4 : 0) | (cell.isUnderline() ? 8 : 0) |
          (cell.isInverse() ? 16 : 0) | (cell.isInvisible() ? 32 : 0) | (cell.isStrikethrough() ? 64 : 0) | (cell.isBlink() ? 128 : 0) |
          (cell.isOverline() ? 256 : 0)
        row.push([cell.getChars(), cell.getWidth(), color(cell.isFgDefault(), cell.isFgRGB(), cell.getFgColor()),
          color(cell.isBgDefault(), cell.isBgRGB(), cell.getBgColor()), flags])
      }
      rows.push(row)
    }
    screens.push({ rows, cursor: [buffer.cursorY, buffer.cursorX] })
    terminal.dispose()
  }
  process.stdout.write(JSON.stringify(screens))
})
`

const CHILD_TIMEOUT_MS = 30_000

/**
 * Renders frames with @xterm/headless, the emulator REA captures with, and returns their visible cells. It runs
 * synchronously (in a short-lived child process), for callers that cannot wait.
 */
export function readScreenCells(sources: readonly ScreenSource[]): ScreenCells[] {
  const xterm = createRequire(import.meta.url).resolve('@xterm/headless')
  const child = spawnSync(process.execPath, ['-e', CHILD_SCRIPT, xterm], {
    input: JSON.stringify(sources),
    encoding: 'utf8',
    timeout: CHILD_TIMEOUT_MS,
    maxBuffer: 256 * 1024 * 1024,
  })
  if (child.status !== 0) {
    throw new Error(`rendering the screens failed: ${child.error?.message ?? child.stderr.trim()}`)
  }
  return JSON.parse(child.stdout) as ScreenCells[]
}
