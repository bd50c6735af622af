import { REPLY_TABLE } from '../scenario/terminal-model.js'
import { xterm256ColorDescription, xtermDescription, type TerminalDescription } from './terminfo-xterm.js'

/**
 * What REA's terminal answers beyond the emulator's own replies (docs/events.md#terminal-replies), version
 * `replies-v1`. Every value is built in: the host's terminfo and its terminal's colours are never read, so an
 * authority's replies are the same on every machine. A new reply, or a changed one, is a new table version.
 */

/** `#rrggbb` as an X11 colour specification with 16 bits a channel, as xterm reports it: `rgb:rrrr/gggg/bbbb`. */
export function colorSpec(color: string): string {
  const channel = (start: number) => color.slice(start, start + 2).repeat(2)
  return `rgb:${channel(1)}/${channel(3)}/${channel(5)}`
}

/** XTVERSION names REA and its reply table, never the package version, so authorities hold across releases. */
export const TERMINAL_VERSION_REPLY = `\x1bP>|REA(${REPLY_TABLE})\x1b\\`

/** DECRQM for mode 2027 (grapheme clusters): permanently set, since REA always draws grapheme clusters. */
export const GRAPHEME_MODE_REPLY = '\x1b[?2027;3$y'

/** The descriptions REA holds; for any other `TERM` it knows no capability but the name. */
const DESCRIPTIONS: Readonly<Record<string, () => TerminalDescription>> = {
  'xterm-256color': xterm256ColorDescription,
  xterm: xtermDescription,
}

/** The termcap names xterm's XTGETTCAP knows (keys and colours), with the terminfo names they stand for. */
const TERMCAP_NAMES: Readonly<Record<string, string>> = {
  ...{ ku: 'kcuu1', kd: 'kcud1', kr: 'kcuf1', kl: 'kcub1', kh: 'khome', '@7': 'kend', kI: 'kich1' },
  ...{ kD: 'kdch1', kP: 'kpp', kN: 'knp', kb: 'kbs', kB: 'kcbt', '@8': 'kent', '%1': 'khlp', '&8': 'kund' },
  ...{ K1: 'ka1', K2: 'kb2', K3: 'ka3', K4: 'kc1', K5: 'kc3', Co: 'colors' },
  ...{ '#2': 'kHOM', '#4': 'kLFT', '%i': 'kRIT', '*7': 'kEND', '*4': 'kDC', '#3': 'kIC' },
  ...{ '%c': 'kNXT', '%e': 'kPRV' },
  ...functionKeyNames(),
}

/** Termcap names of function keys: `k1`–`k9` and `k;` for F1–F10, then `F1`–`F9`, `FA`–`FZ`, `Fa`–`Fr` for F11–F63. */
function functionKeyNames(): Record<string, string> {
  const suffixes = '123456789;123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqr'
  const names: Record<string, string> = {}
  for (let index = 0; index < suffixes.length; index++) {
    names[`${index < 10 ? 'k' : 'F'}${suffixes.charAt(index)}`] = `kf${index + 1}`
  }
  return names
}

/**
 * The reply to XTGETTCAP (`DCS + q <hex name>;… ST`) as xterm gives it: `DCS 1 + r <name>=<value> ST` with the
 * names as sent and the values hex-encoded in upper case, `;` between several, stopping at the first name the
 * declared terminal type does not have; `DCS 0 + r ST` when the first is already unknown. Names are terminfo
 * names (with ncurses extensions), the termcap names of keys and colours, and `TN`/`name` for the type itself.
 */
export function capabilityReply(hexNames: string, terminalType: string): string {
  const description = own(DESCRIPTIONS, terminalType)?.() ?? {}
  const answered: string[] = []
  for (const hexName of hexNames.split(';')) {
    const name = /^(?:[0-9a-fA-F]{2})+$/.test(hexName) ? Buffer.from(hexName, 'hex').toString('latin1') : ''
    const value =
      name === 'TN' || name === 'name'
        ? terminalType
        : (own(description, name) ?? own(description, own(TERMCAP_NAMES, name)))
    if (value === undefined) {
      break
    }
    answered.push(`${hexName}=${Buffer.from(value).toString('hex').toUpperCase()}`)
  }
  return answered.length === 0 ? '\x1bP0+r\x1b\\' : `\x1bP1+r${answered.join(';')}\x1b\\`
}

// Names come from the program: `constructor` must not find Object's.
function own<T>(table: Readonly<Record<string, T>>, name: string | undefined): T | undefined {
  return name !== undefined && Object.hasOwn(table, name) ? table[name] : undefined
}
