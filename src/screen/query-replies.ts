import { DEFAULT_COLORS, paletteColor } from './palette.js'
import { capabilityReply, colorSpec, GRAPHEME_MODE_REPLY, TERMINAL_VERSION_REPLY } from './reply-table.js'
import { WIDTH_MODEL, type WidthModel } from '../scenario/terminal-model.js'
import { parserState, type XtermTerminal } from './xterm.js'

const BEL = '\x07'
const ST = '\x1b\\'
/** xterm's parser state right after an ESC: a string may be ending with `ESC \`. */
const PARSER_ESCAPE = 1
/** OSC 10, 11 and 12 ask for the default foreground, background and cursor colour. */
const SPECIAL_COLORS = [DEFAULT_COLORS.foreground, DEFAULT_COLORS.background, DEFAULT_COLORS.cursor] as const

/**
 * REA's reply table on one xterm: the emulator's own replies (cursor position, device attributes, modes, …) pass
 * through, and REA adds what a current terminal of the declared type answers and this emulator does not: the
 * colours (OSC 10, 11, 12 and 4), XTVERSION, XTGETTCAP and, when it draws them, DECRQM for grapheme clusters
 * (mode 2027; under the legacy width model the emulator's "not recognized" stands). Every reply reaches
 * `send` in the order the queries were parsed. Queries such a terminal leaves unanswered (the kitty keyboard
 * query, `CSI ? 996 n`, DA3) stay unanswered: a program detects that as it does on xterm, through the DA1 it sends
 * after them.
 *
 * A colour reply ends with the terminator its query used, as xterm's does: the query's handler runs before the
 * parser has seen whether `ESC` starts `ESC \`, so the reply waits until the `\` (ST) or until anything else is
 * parsed (BEL). `parsed()` is called after each write the terminal parsed, to release a reply a BEL ended.
 */
export class QueryReplies {
  readonly #send: (reply: string) => void
  readonly #terminalType: string
  readonly #widthModel: WidthModel
  #terminal: XtermTerminal | undefined
  /** Colour replies without their terminator yet. */
  readonly #pending: string[] = []

  constructor(send: (reply: string) => void, terminalType: string, widthModel: WidthModel) {
    this.#send = send
    this.#terminalType = terminalType
    this.#widthModel = widthModel
  }

  install(terminal: XtermTerminal): void {
    this.#terminal = terminal
    const parser = terminal.parser
    terminal.onData((reply) => this.#reply(reply))
    parser.registerEscHandler({ final: '\\' }, () => {
      this.#release(ST)
      return false
    })
    SPECIAL_COLORS.forEach((_, offset) =>
      parser.registerOscHandler(10 + offset, (data) => this.#specialColors(10 + offset, data)),
    )
    parser.registerOscHandler(4, (data) => this.#paletteColors(data))
    parser.registerCsiHandler({ prefix: '>', final: 'q' }, (params) => {
      if (((params[0] as number | undefined) ?? 0) <= 0) {
        this.#reply(TERMINAL_VERSION_REPLY)
      }
      return true
    })
    parser.registerDcsHandler({ intermediates: '+', final: 'q' }, (data) => {
      this.#reply(capabilityReply(data, this.#terminalType))
      return true
    })
    parser.registerCsiHandler({ prefix: '?', intermediates: '$', final: 'p' }, (params) => {
      if (params.length !== 1 || params[0] !== 2027 || this.#widthModel !== WIDTH_MODEL) {
        return false
      }
      this.#reply(GRAPHEME_MODE_REPLY)
      return true
    })
  }

  /** After a write was parsed: a colour reply still waiting was ended by BEL, unless the write ended on an ESC. */
  parsed(): void {
    if (this.#pending.length > 0 && this.#terminal !== undefined) {
      if (parserState(this.#terminal) !== PARSER_ESCAPE) {
        this.#release(BEL)
      }
    }
  }

  #reply(reply: string): void {
    this.#release(BEL)
    this.#send(reply)
  }

  #release(terminator: string): void {
    for (const body of this.#pending.splice(0)) {
      this.#send(`\x1b]${body}${terminator}`)
    }
  }

  /**
   * `OSC 10 ; ? ST` asks for the foreground; `OSC 10 ; ? ; ? ST` for the foreground and the background, each
   * slot the next colour. A slot that is not `?` sets a colour: xterm's own handler is left to do that.
   */
  #specialColors(first: number, data: string): boolean {
    this.#release(BEL)
    const slots = data.split(';')
    slots.forEach((slot, index) => {
      const color = SPECIAL_COLORS[first - 10 + index]
      if (slot === '?' && color !== undefined) {
        this.#pending.push(`${first + index};${colorSpec(color)}`)
      }
    })
    return slots.every((slot) => slot === '?')
  }

  /** `OSC 4 ; n ; ? ST` asks for palette colour n; pairs may repeat. */
  #paletteColors(data: string): boolean {
    this.#release(BEL)
    const fields = data.split(';')
    let queriesOnly = true
    for (let index = 0; index + 1 < fields.length; index += 2) {
      const number = Number(fields[index])
      if (fields[index + 1] !== '?') {
        queriesOnly = false
      } else if (Number.isInteger(number) && number >= 0 && number <= 255 && fields[index] !== '') {
        this.#pending.push(`4;${number};${colorSpec(paletteColor(number))}`)
      }
    }
    return queriesOnly
  }
}
