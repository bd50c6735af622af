import { describe, expect, test } from 'vitest'
import { parseExpectedLine } from '../../../src/markdown/expected-line.js'
import { notationOf } from '../../../src/markdown/render-line.js'

describe('parseExpectedLine', () => {
  test('reads typed text, keys, secrets, wildcards and tokens where they stand', () => {
    expect(parseExpectedLine('Name? {{Ada}}{Enter} in [CWD] at <port>, [..]! {{$PW}}')).toEqual({
      kind: 'line',
      segments: [
        { kind: 'text', text: 'Name? ' },
        { kind: 'typed', text: 'Ada' },
        { kind: 'key', name: 'Enter' },
        { kind: 'text', text: ' in ' },
        { kind: 'token', text: '[CWD]' },
        { kind: 'text', text: ' at ' },
        { kind: 'token', text: '<port>' },
        { kind: 'text', text: ', ' },
        { kind: 'any' },
        { kind: 'text', text: '! ' },
        { kind: 'secret', variable: 'PW' },
      ],
    })
  })

  test('`...` alone is any lines; escaped, it is the text', () => {
    expect(parseExpectedLine('...')).toEqual({ kind: 'lines' })
    expect(parseExpectedLine('\\...')).toEqual({ kind: 'line', segments: [{ kind: 'text', text: '...' }] })
  })

  test('braces that are not a key are text: JSON, templates, style marks', () => {
    for (const text of ['{"a": {"b": 1}}', '{name}', '{}', '{=bold}x{=}', '{{', 'a }} b']) {
      expect(parseExpectedLine(text)).toEqual({ kind: 'line', segments: [{ kind: 'text', text }] })
    }
  })

  test('a key-like name that is no key is an error that suggests the key and the escape', () => {
    const parsed = parseExpectedLine('Go? {Entr}')
    expect(parsed.kind).toBe('error')
    expect(parsed.kind === 'error' ? parsed.message : '').toContain('did you mean {Enter}?')
    expect(parsed.kind === 'error' ? parsed.message : '').toContain('\\{Entr}')
  })

  test('line-start escapes and \\{', () => {
    expect(parseExpectedLine('\\$ {{ls}}{Enter}')).toMatchObject({
      segments: [{ kind: 'text', text: '$ ' }, { kind: 'typed' }, { kind: 'key' }],
    })
    expect(parseExpectedLine('\\{Enter} is text')).toEqual({
      kind: 'line',
      segments: [{ kind: 'text', text: '{Enter} is text' }],
    })
  })

  test('a tab is an error', () => {
    expect(parseExpectedLine('a\tb')).toMatchObject({ kind: 'error', rule: 'tab' })
  })
})

describe('notationOf', () => {
  test.each([
    ['plain text', 'plain text'],
    ['$ looks like a command', '\\$ looks like a command'],
    ['> a prompt', '\\> a prompt'],
    ['? 1', '\\? 1'],
    ['? What is your name?', '? What is your name?'],
    ['...', '\\...'],
    ['press {Enter} now', 'press \\{Enter} now'],
    ['{{name}} and {"json": 1}', '\\{{name}} and {"json": 1}'],
    ['a \\{ b', 'a \\\\{ b'],
    ['\\$x', '\\\\$x'],
  ])('writes %j so that it reads back as itself', (actual, written) => {
    expect(notationOf(actual)).toBe(written)
    const parsed = parseExpectedLine(written)
    expect(
      parsed.kind === 'line'
        ? parsed.segments.map((segment) => ('text' in segment ? segment.text : '?')).join('')
        : parsed,
    ).toBe(actual)
  })
})
