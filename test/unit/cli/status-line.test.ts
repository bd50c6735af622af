import { describe, expect, test } from 'vitest'
import type { CaptureStatus } from '../../../src/capture/live-status.js'
import { createStatusLine, fitToWidth, statusText } from '../../../src/cli/status-line.js'

const running = (fields: Partial<CaptureStatus> = {}): CaptureStatus => ({
  phase: 'running',
  elapsedMs: 2_400,
  outputBytes: 1_300,
  eventCount: 2,
  dueEvent: {
    index: 0,
    type: 'input',
    waitsFor: 'condition',
    condition: { kind: 'screen', text: 'Name? ' },
    atMs: null,
  },
  ...fields,
})

/** A terminal's stderr as the status line uses it: its width, and what was written. */
function terminal(columns: number): { stream: NodeJS.WriteStream; written: string[] } {
  const written: string[] = []
  const stream = { columns, write: (text: string) => written.push(text) > 0 } as unknown as NodeJS.WriteStream
  return { stream, written }
}

describe('statusText', () => {
  test('names the command, the time, the output so far and what the due event waits for', () => {
    expect(statusText(running(), 'node signup.mjs', 120)).toBe(
      'rea ▸ node signup.mjs · 2.4 s · 1.3 KiB output · event 0 (input) waits for screen "Name? "',
    )
  })

  test.for([
    [
      { dueEvent: { index: 1, type: 'resize', waitsFor: 'time', condition: null, atMs: 1500 } },
      'event 1 (resize) is due at 1,500 ms',
    ],
    [{ dueEvent: null }, 'every event sent; waiting for the exit'],
    [{ dueEvent: null, eventCount: 0 }, '· running'],
    [{ phase: 'settling' }, '· settling'],
    [{ phase: 'prepare', elapsedMs: 75_000 }, '1 min 15 s · 1.3 KiB output · starting'],
  ] as const)('says %j as %s', ([fields, text]) => {
    expect(statusText(running(fields as Partial<CaptureStatus>), 'true', 200)).toContain(text)
  })

  test('cuts a long command in its middle, so the program and its last arguments show', () => {
    const text = statusText(running({ dueEvent: null }), `node ${'/deep'.repeat(30)}/signup.mjs --fast`, 120)
    expect(text).toMatch(/^rea ▸ node \/deep[^…]*…[^…]*\/signup\.mjs --fast · 2\.4 s/)
    expect(fitToWidth(text, 120)).toBe(text)
  })

  test('quotes a command and a condition by the one escaping rule', () => {
    const status = running({
      dueEvent: {
        index: 0,
        type: 'input',
        waitsFor: 'condition',
        condition: { kind: 'output', text: 'a\u001b]0;x\u0007' },
        atMs: null,
      },
    })
    expect(statusText(status, 'printf \\e]0;pwned', 200)).toContain('waits for output "a\\e]0;x\\x07"')
  })
})

describe('fitToWidth', () => {
  test('counts a wide character as two cells and leaves the last column free', () => {
    expect(fitToWidth('中文中文', 9)).toBe('中文中文')
    expect(fitToWidth('中文中文', 8)).toBe('中文中…')
    expect(fitToWidth('abcdef', 4)).toBe('ab…')
  })
})

describe('createStatusLine', () => {
  test("draws in place from the line's start, only what changed, within the width, and erases it when stopped", () => {
    const { stream, written } = terminal(40)
    const line = createStatusLine(stream, ['node', 'signup.mjs'])
    line.onStatus(running())
    line.onStatus(running())
    line.onStatus(running({ elapsedMs: 2_600 }))
    expect(written).toHaveLength(2)
    for (const text of written) {
      expect(text.startsWith('\r\u001b[?7l') && text.endsWith('\u001b[J\u001b[?7h\r')).toBe(true)
      expect(text.length - '\r\u001b[?7l\u001b[J\u001b[?7h\r'.length).toBeLessThanOrEqual(39)
    }
    line.stop()
    expect(written.at(-1)).toBe('\r\u001b[J')
    line.onStatus(running({ elapsedMs: 3_000 }))
    line.stop()
    expect(written).toHaveLength(3)
  })

  test('writes nothing at the end when it drew nothing', () => {
    const { stream, written } = terminal(80)
    createStatusLine(stream, ['true']).stop()
    expect(written).toEqual([])
  })

  test('takes a terminal that reports no width as 80 columns', () => {
    const { stream, written } = terminal(0)
    createStatusLine(stream, ['x'.repeat(200)]).onStatus(running())
    expect(written[0]?.length).toBe('\r\u001b[?7l\u001b[J\u001b[?7h\r'.length + 79)
  })
})

test('the status line shows the command line by the one escaping rule, on one line', () => {
  const { stream, written } = terminal(200)
  createStatusLine(stream, ['printf', 'one\ntwo', '\u001b[2J"q"']).onStatus(running({ dueEvent: null }))
  expect(written[0]).toContain('rea ▸ printf "one\\ntwo" "\\e[2J\\"q\\"" · ')
  expect(written[0]).not.toContain('\n')
})
