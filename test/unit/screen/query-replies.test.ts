import { describe, expect, test } from 'vitest'
import { LiveTerminal } from '../../../src/terminal/live-terminal.js'

const SETTINGS = {
  columns: 20,
  rows: 4,
  scrollback: 100,
  answer_queries: true,
  width_model: 'grapheme-clusters-v1',
} as const
const NO_FLOW_CONTROL = { pause: () => undefined, resume: () => undefined }

/** Feeds the chunks in order and returns every reply once all of them are parsed. */
async function repliesTo(chunks: readonly string[], terminalType?: string): Promise<string[]> {
  const replies: string[] = []
  const live = new LiveTerminal(SETTINGS, NO_FLOW_CONTROL, (reply) => replies.push(reply), terminalType)
  try {
    for (const chunk of chunks) {
      live.feed(chunk)
      await live.whenRendered(() => undefined)
    }
    return replies
  } finally {
    live.dispose()
  }
}

describe('QueryReplies', () => {
  test.for([
    ['OSC 10 ended by BEL', ['\x1b]10;?\x07'], ['\x1b]10;rgb:ffff/ffff/ffff\x07']],
    ['OSC 11 ended by ST', ['\x1b]11;?\x1b\\'], ['\x1b]11;rgb:0000/0000/0000\x1b\\']],
    ['OSC 12 (cursor colour)', ['\x1b]12;?\x07'], ['\x1b]12;rgb:ffff/ffff/ffff\x07']],
    [
      'OSC 11 with its ST split across two chunks',
      ['\x1b]11;?\x1b', '\\'],
      ['\x1b]11;rgb:0000/0000/0000\x1b\\'],
    ],
    [
      'OSC 10 asking for two colours at once',
      ['\x1b]10;?;?\x07'],
      ['\x1b]10;rgb:ffff/ffff/ffff\x07', '\x1b]11;rgb:0000/0000/0000\x07'],
    ],
    [
      'OSC 4 (palette colour 1 and 196)',
      ['\x1b]4;1;?;196;?\x07'],
      ['\x1b]4;1;rgb:cccc/0000/0000\x07', '\x1b]4;196;rgb:ffff/0000/0000\x07'],
    ],
    ['OSC 10 that sets a colour', ['\x1b]10;#123456\x07'], []],
  ] as const)('answers %s with the terminator it used', async ([, chunks, expected]) => {
    expect(await repliesTo(chunks)).toEqual(expected)
  })

  test('answers queries in the order they were asked, whatever answers them', async () => {
    expect(await repliesTo(['ab\x1b]11;?\x07\x1b[6n\x1b]10;?\x1b\\\x1b[c'])).toEqual([
      '\x1b]11;rgb:0000/0000/0000\x07',
      '\x1b[1;3R',
      '\x1b]10;rgb:ffff/ffff/ffff\x1b\\',
      '\x1b[?1;2c',
    ])
  })

  test('answers XTVERSION with REA and its reply table, never a package version', async () => {
    expect(await repliesTo(['\x1b[>q', '\x1b[>0q', '\x1b[>1q'])).toEqual([
      '\x1bP>|REA(replies-v1)\x1b\\',
      '\x1bP>|REA(replies-v1)\x1b\\',
    ])
  })

  test('answers XTGETTCAP from the declared terminal type, and the invalid reply otherwise', async () => {
    const hex = (name: string) => Buffer.from(name).toString('hex')
    expect(
      await repliesTo([
        `\x1bP+q${hex('Co')}\x1b\\`,
        `\x1bP+q${hex('kcuu1')};${hex('k1')}\x1b\\`,
        `\x1bP+q${hex('TN')}\x1b\\`,
        `\x1bP+q${hex('nonesuch')}\x1b\\`,
      ]),
    ).toEqual([
      '\x1bP1+r436f=323536\x1b\\',
      '\x1bP1+r6b63757531=1B4F41;6b31=1B4F50\x1b\\',
      `\x1bP1+r544e=${Buffer.from('xterm-256color').toString('hex').toUpperCase()}\x1b\\`,
      '\x1bP0+r\x1b\\',
    ])
    expect(await repliesTo([`\x1bP+q${hex('colors')}\x1b\\`], 'xterm')).toEqual([
      '\x1bP1+r636f6c6f7273=38\x1b\\',
    ])
    expect(await repliesTo([`\x1bP+q${hex('colors')}\x1b\\`], 'vt100')).toEqual(['\x1bP0+r\x1b\\'])
  })

  test('leaves the kitty keyboard query unanswered, so the DA1 after it tells the program', async () => {
    expect(await repliesTo(['\x1b[?u\x1b[c'])).toEqual(['\x1b[?1;2c'])
  })

  test('reports grapheme clusters (mode 2027) as permanently set and other modes as the emulator does', async () => {
    expect(await repliesTo(['\x1b[?2027$p', '\x1b[?2026$p'])).toEqual(['\x1b[?2027;3$y', '\x1b[?2026;2$y'])
  })
})
