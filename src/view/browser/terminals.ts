import type { ITerminalAddon, ITerminalInitOnlyOptions, ITerminalOptions, Terminal } from '@xterm/xterm'
import type { PageSide } from '../page-data.js'

/**
 * xterm.js and its grapheme addon are inlined into the page before this script, as classic scripts: their UMD
 * builds define these globals. The addon may be absent (an older page layout), so it is optional.
 */
declare global {
  interface Window {
    Terminal: typeof Terminal
    UnicodeGraphemesAddon?: { UnicodeGraphemesAddon: new () => ITerminalAddon }
  }
}

function terminalOptions(
  columns: number,
  rows: number,
  scrollback: number,
): ITerminalOptions & ITerminalInitOnlyOptions {
  return {
    cols: columns,
    rows,
    scrollback,
    disableStdin: true,
    cursorBlink: false,
    allowProposedApi: true,
    fontFamily: '"DejaVu Sans Mono", Menlo, Consolas, monospace',
    fontSize: 13,
    lineHeight: 1,
  }
}

/**
 * A terminal for one side, opened in `host`. Frames are redrawn with the widths they were rendered with (REA's
 * grapheme-cluster model, or xterm's own Unicode 6 tables for captures made before it had a name).
 */
export function openTerminal(
  host: HTMLElement,
  sideTerminal: PageSide['terminal'],
  columns: number,
  rows: number,
): Terminal {
  const terminal = new window.Terminal(terminalOptions(columns, rows, sideTerminal.scrollback))
  const graphemes = window.UnicodeGraphemesAddon
  if (sideTerminal.width_model === 'grapheme-clusters-v1' && graphemes !== undefined) {
    terminal.loadAddon(new graphemes.UnicodeGraphemesAddon())
  }
  terminal.open(host)
  return terminal
}
