import { describe, expect, test } from 'vitest'
import { normalizeLine, readTerminalLines } from '../../../../src/compare/trace/terminal-lines.js'
import { buildEvidence } from '../../../helpers/build-evidence.js'

describe('normalizeLine', () => {
  test.for<[string, string]>([
    ['worker a: done\r', 'worker a: done'],
    ['\u001b[32mok\u001b[0m  \r', 'ok'],
    ['  indented', '  indented'],
    ['\r', ''],
    ['a\rb', 'a\rb'],
  ])('turns %j into %j', ([raw, expected]) => {
    expect(normalizeLine(raw)).toBe(expected)
  })
})

describe('readTerminalLines', () => {
  test('splits the stream at "\\n" across chunk boundaries and locates each line', () => {
    const evidence = buildEvidence([{ chunk: 'one\r\ntw' }, { chunk: 'o\r\n\r\nthr' }, { chunk: 'ee\r\n' }])
    const { lines, partial_lines } = readTerminalLines(evidence)
    expect(partial_lines).toBe(0)
    expect(
      lines.map(({ text, sequence, chunk_index, byte_offset }) => [text, sequence, chunk_index, byte_offset]),
    ).toEqual([
      ['one', 0, 0, 0],
      ['two', 1, 0, 5],
      ['three', 2, 1, 5],
    ])
  })

  test('measures byte offsets in UTF-8', () => {
    const evidence = buildEvidence([{ chunk: 'é✓\r\nnext\r\n' }])
    expect(readTerminalLines(evidence).lines[1]).toMatchObject({ text: 'next', byte_offset: 7 })
  })

  test('orders lines that end in the same chunk by their place in the stream', () => {
    const { lines } = readTerminalLines(buildEvidence([{ chunk: 'a\nb\nc\n' }]))
    expect(lines.map((line) => [line.sequence, line.ordinal])).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
    ])
  })

  test('keeps an unterminated last line when the drain was complete', () => {
    const { lines } = readTerminalLines(buildEvidence([{ chunk: 'first\r\nPrompt> ' }]))
    expect(lines.map((line) => line.text)).toEqual(['first', 'Prompt>'])
  })

  test('counts an unterminated last line as partial when the drain was incomplete', () => {
    const evidence = buildEvidence([{ chunk: 'first\r\nlast without end' }], { drain: 'incomplete' })
    expect(readTerminalLines(evidence)).toMatchObject({ lines: [{ text: 'first' }], partial_lines: 1 })
  })

  test('treats the line cut by omitted chunks and the first line after them as partial', () => {
    const evidence = buildEvidence([
      { chunk: 'whole\r\ncut ' },
      { omitted: { count: 2, bytes: 4096 } },
      { chunk: 'rest of something\r\nafter\r\n' },
    ])
    const { lines, partial_lines } = readTerminalLines(evidence)
    expect(lines.map((line) => line.text)).toEqual(['whole', 'after'])
    expect(partial_lines).toBe(2)
  })

  test('treats the first line after a gap as partial even when the gap followed a line end', () => {
    const evidence = buildEvidence([
      { chunk: 'whole\r\n' },
      { omitted: { count: 1, bytes: 10 } },
      { chunk: 'tail\r\n' },
    ])
    expect(readTerminalLines(evidence)).toMatchObject({ lines: [{ text: 'whole' }], partial_lines: 1 })
  })

  test('skips blank lines, including lines that hold only escape sequences', () => {
    const { lines } = readTerminalLines(buildEvidence([{ chunk: '\r\n   \r\n\u001b[0m\r\nx\r\n' }]))
    expect(lines.map((line) => line.text)).toEqual(['x'])
  })
})
