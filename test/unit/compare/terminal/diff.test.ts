import { describe, expect, test } from 'vitest'
import { TERMINAL_DIFF_MAX_LINES, terminalDiff } from '../../../../src/compare/terminal/diff.js'

const lines = (count: number, change?: number, label = 'changed') =>
  Array.from(
    { length: count },
    (_, index) => `line ${index + 1} ${index + 1 === change ? label : 'same'}`,
  ).join('\n') + '\n'

describe('terminalDiff', () => {
  test('is null for identical texts', () => {
    expect(terminalDiff('a\nb\n', 'a\nb\n')).toBeNull()
  })

  test('shows one changed line with three lines of context and real line numbers, deep in a long text', () => {
    const diff = terminalDiff(lines(100_000), lines(100_000, 50_000))!
    expect(diff.truncated).toBe(false)
    expect(diff.unified).toBe(
      [
        '--- authority',
        '+++ reconstruction',
        '@@ -49997,7 +49997,7 @@',
        ' line 49997 same',
        ' line 49998 same',
        ' line 49999 same',
        '-line 50000 same',
        '+line 50000 changed',
        ' line 50001 same',
        ' line 50002 same',
        ' line 50003 same',
        '',
      ].join('\n'),
    )
  })

  test('shows an inserted line, an appended tail and a change in the first line', () => {
    expect(terminalDiff('x\ny\n', 'x\nNEW\ny\n')!.unified).toContain('@@ -1,2 +1,3 @@\n x\n+NEW\n y\n')
    expect(terminalDiff('a\n', 'a\nb\n')!.unified).toContain('@@ -1,1 +1,2 @@\n a\n+b\n')
    expect(terminalDiff('abc\nz\n', 'abd\nz\n')!.unified).toContain('@@ -1,2 +1,2 @@\n-abc\n+abd\n z\n')
  })

  test('escapes control characters and ignores a CR before LF', () => {
    const diff = terminalDiff('\u001b[1mjob\u001b[0m\r\nok\r\n', '\u001b[2mjob\u001b[0m\r\nok\r\n')!
    expect(diff.unified).toContain('-\\e[1mjob\\e[0m\n+\\e[2mjob\\e[0m\n ok\n')
    expect(terminalDiff('a\r\n', 'a\n')!.unified).toContain('differ only in carriage returns')
  })

  test('caps a huge difference and says so', () => {
    const diff = terminalDiff(lines(20_000, undefined, ''), lines(20_000).replaceAll('same', 'other'))!
    expect(diff.truncated).toBe(true)
    expect(diff.unified.split('\n').length).toBeLessThanOrEqual(TERMINAL_DIFF_MAX_LINES + 2)
    expect(diff.unified).toMatch(/… diff cut after \d+ lines/)
  })
})

describe('terminalDiff at the very start of the text', () => {
  test('a first line that is empty on one side is shown, not skipped', () => {
    expect(terminalDiff('\nA\n', 'X\nA\n')!.unified).toContain('@@ -1,2 +1,2 @@\n-\n+X\n A\n')
  })
})
