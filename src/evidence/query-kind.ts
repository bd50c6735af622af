import type { TerminalReply } from './schema.js'

/* eslint-disable no-control-regex -- replies are escape sequences; ESC is what they start with */
const KINDS: readonly [RegExp, TerminalReply['query']][] = [
  [/^\x1b\[\d+;\d+R$/, 'cursor_position'],
  [/^\x1b\[\?[\d;]*c$/, 'device_attributes'],
  [/^\x1b\[>[\d;]*c$/, 'secondary_device_attributes'],
  [/^\x1b\[\??[\d;]*\$y$/, 'mode_report'],
  [/^\x1b\[\d+n$/, 'status_report'],
  [/^\x1b\](?:1[0-2]|4;\d+);rgb:[0-9a-f]{4}\/[0-9a-f]{4}\/[0-9a-f]{4}(?:\x07|\x1b\\)$/, 'color'],
  [/^\x1bP>\|[^\x1b]*\x1b\\$/, 'terminal_version'],
  [/^\x1bP[01]\+r[^\x1b]*\x1b\\$/, 'terminal_capability'],
]
/* eslint-enable no-control-regex */

/**
 * What a program asked, read from the emulator's reply: the reply's form names the query (CSI 6n gets
 * `CSI row;col R`, CSI c gets `CSI ? … c`, DECRQM gets `… $ y`, CSI 5n gets `CSI 0 n`, OSC 10/11/12/4 get
 * `OSC … ; rgb:…`, XTVERSION gets `DCS > | … ST`, XTGETTCAP gets `DCS 1 + r … ST` or `DCS 0 + r ST`). Replies REA
 * gave before its reply table (DECRQSS among them) keep the kind they were recorded with.
 */
export function queryKind(reply: string): TerminalReply['query'] {
  return KINDS.find(([pattern]) => pattern.test(reply))?.[1] ?? 'other'
}
