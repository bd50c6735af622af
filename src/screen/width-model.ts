import { WIDTH_MODEL, type WidthModel } from '../scenario/terminal-model.js'
import {
  loadTerminalClass,
  requireGraphemesAddon,
  synchronousWriter,
  type GraphemesAddon,
  type XtermTerminal,
} from './xterm.js'
import { errorMessage } from '../internal/error-message.js'

/**
 * Characters the self-check knows to be two cells wide under the model: a thumbs-up (U+1F44D, above U+FFFF,
 * where the addon's data bug shows), a family joined by zero-width joiners and a heart with variation selector
 * 16. Each is measured on its own: with the bug their widths (1, 3, 2) add up to the same 6.
 */
const SELF_CHECK_SAMPLES = ['\u{1F44D}', '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}', '\u2764\uFE0F']
const SELF_CHECK_WIDTH = 2

let graphemes: GraphemesAddon | undefined

/**
 * Loads and checks what the width model needs ahead of the first terminal that uses it (the check costs a
 * scratch terminal, once per process). Throws as `applyWidthModel` does.
 */
export function prepareWidthModel(model: WidthModel): void {
  if (model === WIDTH_MODEL) {
    loadGraphemes()
  }
}

/**
 * Makes a terminal draw characters as wide as the width model says. The legacy model is xterm's own Unicode 6
 * tables; the current one is @xterm/addon-unicode-graphemes in its grapheme-cluster mode (docs/fidelity.md
 * says why that one). Throws when the current model cannot be had: REA never renders under a model other than
 * the one the capture commits.
 */
export function applyWidthModel(terminal: XtermTerminal, model: WidthModel): void {
  if (model === WIDTH_MODEL) {
    activateGraphemes(terminal, loadGraphemes())
  }
}

function activateGraphemes(terminal: XtermTerminal, Addon: GraphemesAddon): void {
  terminal.loadAddon(new Addon())
  terminal.unicode.activeVersion = '15-graphemes'
}

/**
 * The addon, checked once per process on a scratch terminal. If the module cache already held a copy evaluated
 * with a pooled Buffer (someone else loaded it first), a fresh copy is evaluated and checked again.
 */
function loadGraphemes(): GraphemesAddon {
  if (graphemes === undefined) {
    let failure = ''
    for (const fresh of [false, true]) {
      try {
        const Addon = requireGraphemesAddon(fresh)
        const widths = measure(Addon)
        if (widths?.every((width) => width === SELF_CHECK_WIDTH) === true) {
          graphemes = Addon
          break
        }
        failure =
          widths === undefined ? 'this xterm cannot be written synchronously' : `got ${widths.join(', ')}`
      } catch (error) {
        // Its data is decoded as the module is evaluated, and a misread header can make that throw.
        failure = errorMessage(error)
      }
    }
    if (graphemes === undefined) {
      throw new Error(
        `the terminal width model ${WIDTH_MODEL} failed its self-check: three emoji must take ${SELF_CHECK_WIDTH} cells each, ${failure}`,
      )
    }
  }
  return graphemes
}

/** How many cells each self-check sample takes under the addon, or undefined when it cannot be measured. */
function measure(Addon: GraphemesAddon): number[] | undefined {
  const Terminal = loadTerminalClass()
  const terminal = new Terminal({ cols: 20, rows: 1, allowProposedApi: true, logLevel: 'off' })
  try {
    activateGraphemes(terminal, Addon)
    const write = synchronousWriter(terminal)
    if (write === undefined) {
      return undefined
    }
    return SELF_CHECK_SAMPLES.map((sample) => {
      write(`\r${sample}`)
      return terminal.buffer.active.cursorX
    })
  } finally {
    terminal.dispose()
  }
}
