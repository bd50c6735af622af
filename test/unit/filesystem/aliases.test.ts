import { describe, expect, test } from 'vitest'
import { entryKey, escapeName, rootKey, unescapeName } from '../../../src/filesystem/aliases.js'

describe('escapeName', () => {
  test.for([
    ['plain UTF-8', Buffer.from('report.json'), 'report.json'],
    ['spaces and newlines', Buffer.from('a b\nc'), 'a b\nc'],
    ['non-ASCII UTF-8', Buffer.from('résumé'), 'résumé'],
    ['a percent sign', Buffer.from('100%'), '100%25'],
    ['an invalid byte', Buffer.from([0x62, 0xff, 0x63]), 'b%FFc'],
    ['a truncated sequence', Buffer.from([0xe2, 0x82]), '%E2%82'],
    ['invalid bytes next to a percent sign', Buffer.from([0x25, 0xc0]), '%25%C0'],
  ] as const)('keeps %s apart, reversibly', ([, name, escaped]) => {
    expect(escapeName(name)).toBe(escaped)
    expect(unescapeName(escaped).equals(name)).toBe(true)
  })

  test('never maps two names to one key', () => {
    // A name that literally contains "%FF" and a name with the byte 0xFF must differ.
    expect(escapeName(Buffer.from('x%FF'))).not.toBe(escapeName(Buffer.from([0x78, 0xff])))
  })

  test('round-trips random byte names', () => {
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
    for (let run = 0; run < 500; run++) {
      const name = Buffer.from(
        Array.from({ length: 1 + (next() % 12) }, () => next() % 256).filter(
          (byte) => byte !== 0x2f && byte !== 0,
        ),
      )
      expect(unescapeName(escapeName(name)).equals(name), name.toString('hex')).toBe(true)
    }
  })
})

describe('entry keys', () => {
  test('name the root and entries below it', () => {
    expect(rootKey(1)).toBe('root_1:.')
    expect(entryKey(0, ['a', 'final.json'])).toBe('root_0:a/final.json')
  })
})
