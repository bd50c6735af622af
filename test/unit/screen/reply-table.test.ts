import { describe, expect, test } from 'vitest'
import { capabilityReply, colorSpec } from '../../../src/screen/reply-table.js'

const hex = (name: string) => Buffer.from(name).toString('hex')

describe('colorSpec', () => {
  test('doubles each 8-bit channel into 16 bits, lower case', () => {
    expect(colorSpec('#1e2aff')).toBe('rgb:1e1e/2a2a/ffff')
  })
})

describe('capabilityReply', () => {
  test('answers vim’s names as xterm does, from xterm-256color', () => {
    expect(capabilityReply(hex('kb'), 'xterm-256color')).toBe('\x1bP1+r6b62=7F\x1b\\')
    expect(capabilityReply(hex('%1'), 'xterm-256color')).toBe('\x1bP0+r\x1b\\')
    expect(capabilityReply(hex('PS'), 'xterm-256color')).toBe('\x1bP1+r5053=1B5B3230307E\x1b\\')
    expect(capabilityReply(hex('F1'), 'xterm-256color')).toBe('\x1bP1+r4631=1B5B32337E\x1b\\')
  })

  test('keeps the name as sent and stops at the first unknown one', () => {
    expect(capabilityReply(`${hex('Co').toUpperCase()};${hex('xx')};${hex('kb')}`, 'xterm-256color')).toBe(
      '\x1bP1+r436F=323536\x1b\\',
    )
  })

  test.for([['constructor'], ['cols'], ['lines'], ['']] as const)('does not know %j', ([name]) => {
    expect(capabilityReply(hex(name), 'xterm-256color')).toBe('\x1bP0+r\x1b\\')
  })

  test('rejects a name that is not hexadecimal', () => {
    expect(capabilityReply('zz', 'xterm-256color')).toBe('\x1bP0+r\x1b\\')
  })
})
