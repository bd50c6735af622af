import type { TerminalReply } from './schema.js'

/* eslint-disable no-control-regex -- replies are escape sequences; ESC is what they start with */
const KINDS: readonly [RegExp, TerminalReply['query']][] = [
  [/^\x1b\[\d+;\d+R$/, 'cursor_position'],
  [/^\x1b\[\?[\d;]*c$/, 'device_attributes'],
  [/^\x1b\[>[\d;]*c$/, 'secondary_device_attributes'],
  [/^\x1b\[\??[\d;]*\$y$/, 'mode_report'],
  [/^\x1b\[\d+n$/, 'status_report'],
]
/* eslint-enable no-control-regex */

/**
 * What a program asked, read from the emulator's reply: the reply's form names the query (CSI 6n gets
 * `CSI row;col R`, CSI c gets `CSI ? … c`, DECRQM gets `… $ y`, CSI 5n gets `CSI 0 n`).
 */
export function queryKind(reply: string): TerminalReply['query'] {
  return KINDS.find(([pattern]) => pattern.test(reply))?.[1] ?? 'other'
}
