import { describe, expect, test } from 'vitest'
import { captureProcess, type Evidence } from '../../src/index.js'
import { program } from '../helpers/fixtures.js'

const stream = (evidence: Evidence) => evidence.terminal.chunks.map((chunk) => chunk.data).join('')
const hex = (text: string) => Buffer.from(text).toString('hex')

/** The probe's report lines, `width ✅ = 2` or `raw 1b5b3671 = \e[1;1R`. */
async function probe(probes: readonly string[], terminal: Record<string, unknown> = {}): Promise<string[]> {
  const evidence = await captureProcess({
    executable: program('terminal-probe.mjs'),
    arguments: [...probes],
    terminal,
    timeout_ms: 60_000,
  })
  expect(evidence.exit.code).toBe(0)
  return stream(evidence)
    .split('\r\n')
    .filter((line) => line.startsWith('width ') || line.startsWith('raw '))
}

describe('the terminal a program sees', () => {
  test('draws ✅, ✨, 中 and ❤️ two cells wide, as the cursor position report tells the program', async () => {
    expect(
      await probe(['width:\u2705', 'width:\u2728', 'width:\u4E2D', 'width:\u2764\uFE0F', 'width:ab']),
    ).toEqual([
      'width \u2705 = 2',
      'width \u2728 = 2',
      'width \u4E2D = 2',
      'width \u2764\uFE0F = 2',
      'width ab = 2',
    ])
  })

  test('under the legacy width model ✅ and ✨ take one cell, as before', async () => {
    expect(
      await probe(['width:\u2705', 'width:\u2728', 'width:\u4E2D'], { width_model: 'unicode-6' }),
    ).toEqual(['width \u2705 = 1', 'width \u2728 = 1', 'width \u4E2D = 2'])
  })

  test('answers OSC 10 and 11 with its colours and the terminator asked with, and XTVERSION with its name', async () => {
    const queries = [
      '\x1b]10;?\x07',
      '\x1b]11;?\x1b\\',
      '\x1b[>q',
      `\x1bP+q${hex('Co')}\x1b\\`,
      '\x1b[?u\x1b[c',
    ]
    const evidence = await captureProcess({
      executable: program('terminal-probe.mjs'),
      arguments: queries.map((query) => `raw:${hex(query)}`),
      timeout_ms: 60_000,
    })
    const lines = stream(evidence)
      .split('\r\n')
      .filter((line) => line.startsWith('raw '))
      .map((line) => line.replace(/^raw [0-9a-f]+ = /, ''))
    expect(lines).toEqual([
      '\\e]10;rgb:ffff/ffff/ffff\\a',
      '\\e]11;rgb:0000/0000/0000\\e\\',
      '\\eP>|REA(replies-v1)\\e\\',
      '\\eP1+r436f=323536\\e\\',
      // The kitty keyboard query goes unanswered: the DA1 after it is what tells the program.
      '\\e[?1;2c',
    ])
    expect(evidence.terminal.replies?.map((reply) => reply.query)).toEqual([
      'color',
      'color',
      'terminal_version',
      'terminal_capability',
      'device_attributes',
    ])
    expect(evidence.commitments.comparison_contract.value.terminal).toMatchObject({
      answer_queries: true,
      reply_table: 'replies-v1',
      width_model: 'grapheme-clusters-v1',
    })
  })
})
