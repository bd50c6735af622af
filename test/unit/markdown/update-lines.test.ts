import { describe, expect, test } from 'vitest'
import type { CommandCheck } from '../../../src/markdown/check-command.js'
import { alignLines, linePattern } from '../../../src/markdown/match-lines.js'
import type { ExpectedStatus } from '../../../src/markdown/parse-block.js'
import { planDocument } from '../../../src/markdown/plan-document.js'
import { applySplices, planUpdate } from '../../../src/markdown/update-lines.js'

/** What `-u` writes for the first command of `text` when the terminal showed `actual` and ended with `status`. */
function updated(text: string, actual: string[], status: ExpectedStatus = { kind: 'code', code: 0 }): string {
  const document = planDocument('/docs/x.md', text, {})
  const block = document.blocks[0]!
  const plan = block.commands[0]!
  const expected = plan.parsed.expected
  const check = {
    outcome: 'failed',
    plan,
    expectedStatus: plan.parsed.statusLine?.status ?? { kind: 'code', code: 0 },
    actualStatus: status,
    sections: [
      {
        label: 'the final screen and its scrollback',
        expected,
        actual,
        alignment: alignLines(expected.map(linePattern), actual),
      },
    ],
    flaws: [],
    unknowns: [],
    usedAlternateScreen: false,
  } as unknown as CommandCheck
  const update = planUpdate(check, document.scanned, block.fence.indent)
  if (update.refused !== null) {
    return `refused: ${update.refused}`
  }
  return applySplices(text, update.splices)
}

describe('planUpdate', () => {
  test('rewrites only the line that differs; lines that match keep their wildcards and tokens', () => {
    const text =
      'Intro\n\n```console\n$ build\nBuilt [..] files\nOutput: [CWD]/dist\nWarnings: 0\n```\nOutro\n'
    expect(updated(text, ['Built 4 files', 'Output: [CWD]/dist', 'Warnings: 1'])).toBe(
      'Intro\n\n```console\n$ build\nBuilt [..] files\nOutput: [CWD]/dist\nWarnings: 1\n```\nOutro\n',
    )
  })

  test('inserts new lines after the last line that matched, and removes lines the terminal no longer shows', () => {
    const text = '```console\n$ x\na\nb\n```\n'
    expect(updated(text, ['a', 'new', 'b'])).toBe('```console\n$ x\na\nnew\nb\n```\n')
    expect(updated(text, ['b'])).toBe('```console\n$ x\nb\n```\n')
    expect(updated('```console\n$ x\n```\n', ['out'])).toBe('```console\n$ x\nout\n```\n')
  })

  test('follows the exit status: a ? line is added, changed or removed', () => {
    expect(updated('```console\n$ x\nout\n```\n', ['out'], { kind: 'code', code: 2 })).toBe(
      '```console\n$ x\n? 2\nout\n```\n',
    )
    expect(updated('```console\n$ x\n? 1\nout\n```\n', ['out'], { kind: 'signal', signal: 'SIGINT' })).toBe(
      '```console\n$ x\n? SIGINT\nout\n```\n',
    )
    expect(updated('```console\n$ x\n? 1\nout\n```\n', ['out', 'more'])).toBe(
      '```console\n$ x\nout\nmore\n```\n',
    )
  })

  test('keeps CRLF line ends, the fence indentation, and escapes what would read as notation', () => {
    const text = '1. Try:\r\n\r\n   ```console\r\n   $ x\r\n   old\r\n   ```\r\n'
    expect(updated(text, ['$ new', '{Enter}'])).toBe(
      '1. Try:\r\n\r\n   ```console\r\n   $ x\r\n   \\$ new\r\n   \\{Enter}\r\n   ```\r\n',
    )
  })

  test('never rewrites a line that holds input', () => {
    expect(updated('```console\n$ x\nName? {{Ada}}{Enter}\n```\n', ['Name? Bob'])).toMatch(
      /^refused: line 3 holds input/,
    )
  })
})
