/**
 * REA's terminal colours: xterm.js's own theme, light text on black, as most users' terminals are dark. What the
 * terminal reports to a program (OSC 4/10/11/12 replies) and what REA draws for people (SVG pictures) read the
 * same table, so a picture shows the colours the program was told.
 */

/** The default foreground, background and cursor colours. */
export const DEFAULT_COLORS = { foreground: '#ffffff', background: '#000000', cursor: '#ffffff' } as const

/** The 16 ANSI colours of xterm.js's theme; 16–231 are the 6×6×6 cube and 232–255 the grey ramp, as in xterm. */
const ANSI_COLORS = [
  '#2e3436',
  '#cc0000',
  '#4e9a06',
  '#c4a000',
  '#3465a4',
  '#75507b',
  '#06989a',
  '#d3d7cf',
  '#555753',
  '#ef2929',
  '#8ae234',
  '#fce94f',
  '#729fcf',
  '#ad7fa8',
  '#34e2e2',
  '#eeeeec',
] as const
const CUBE_LEVELS = [0x00, 0x5f, 0x87, 0xaf, 0xd7, 0xff] as const

/** Palette colour `index` (0–255) as `#rrggbb`. */
export function paletteColor(index: number): string {
  if (index < 16) {
    return ANSI_COLORS[index] ?? '#000000'
  }
  const hex = (value: number) => value.toString(16).padStart(2, '0')
  if (index < 232) {
    const cube = index - 16
    const level = (digit: number) => hex(CUBE_LEVELS[digit] ?? 0)
    return `#${level(Math.floor(cube / 36))}${level(Math.floor(cube / 6) % 6)}${level(cube % 6)}`
  }
  const grey = hex(8 + (index - 232) * 10)
  return `#${grey}${grey}${grey}`
}

/**
 * A cell's colour as drawn: a palette index or `#rrggbb`, null for the default. Bold draws the first 8 colours
 * bright, as xterm.js does.
 */
export function drawnColor(value: number | string | null, bold: boolean): string | null {
  if (value === null || typeof value === 'string') {
    return value
  }
  return paletteColor(bold && value < 8 ? value + 8 : value)
}
