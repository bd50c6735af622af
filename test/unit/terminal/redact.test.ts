import { describe, expect, test } from 'vitest'
import { validateScenario } from '../../../src/scenario/validate.js'
import { sensitiveValues, type SensitiveValue } from '../../../src/normalize/sensitive-values.js'
import { SensitiveRedactor } from '../../../src/terminal/redact.js'

const value = (text: string, eventIndex = 0): SensitiveValue => ({ eventIndex, bytes: Buffer.from(text) })

/** Feeds `reads` through a redactor and returns everything it passed on, plus the redactor. */
function run(values: SensitiveValue[], reads: string[]) {
  const redactor = new SensitiveRedactor(values)
  const out = [...reads.map((read) => redactor.push(Buffer.from(read))), redactor.flush()]
  return { text: Buffer.concat(out).toString(), redactor }
}

describe('SensitiveRedactor', () => {
  test('masks a value in one read, byte for byte', () => {
    expect(run([value('hunter22')], ['pw hunter22 ok']).text).toBe('pw ******** ok')
  })

  test.for([...Array(14).keys()].map((cut) => cut + 1))(
    'masks a value split across two reads at byte %i',
    (cut) => {
      const stream = 'xx s3cret-value!! yy'
      const { text } = run([value('s3cret-value!!')], [stream.slice(0, cut), stream.slice(cut)])
      expect(text).toBe(`xx ${'*'.repeat(14)} yy`)
    },
  )

  test('masks a value that arrives one character per read, like an echo', () => {
    const secret = 'Tr0ub4dor&3'
    const { text, redactor } = run([value(secret)], ['Password: ', ...Array.from(secret), '\r\n'])
    expect(text).toBe(`Password: ${'*'.repeat(secret.length)}\r\n`)
    expect(redactor.locations).toEqual([{ event_index: 0, stream_byte_offset: 10, byte_length: 11 }])
  })

  test('passes on a held partial match once the stream shows it was not the value', () => {
    const redactor = new SensitiveRedactor([value('secret')])
    expect(redactor.push(Buffer.from('a sec')).toString()).toBe('a ')
    expect(redactor.push(Buffer.from('ond')).toString()).toBe('second')
  })

  test('releases a trailing partial match when the stream ends', () => {
    expect(run([value('secret')], ['ends with sec']).text).toBe('ends with sec')
  })

  test('masks every occurrence and counts them with their stream offsets', () => {
    const { text, redactor } = run([value('abcd', 2)], ['abcd-abcd', '-ab', 'cd'])
    expect(text).toBe('****-****-****')
    expect(redactor.count).toBe(3)
    expect(redactor.locations.map((location) => location.stream_byte_offset)).toEqual([0, 5, 10])
    expect(redactor.locations.every((location) => location.event_index === 2)).toBe(true)
  })

  test('masks several values, the longer one first when one contains the other', () => {
    const { text } = run([value('token-12345', 1), value('12345', 0)], ['token-12345 and 12345'])
    expect(text).toBe(`${'*'.repeat(11)} and *****`)
  })

  test('masks multi-byte values by their UTF-8 bytes', () => {
    const { text } = run([value('pässwörd')], ['<pässwörd>'])
    expect(text).toBe(`<${'*'.repeat(Buffer.byteLength('pässwörd'))}>`)
  })

  test('passes everything through when there is nothing to mask', () => {
    const redactor = new SensitiveRedactor([])
    const read = Buffer.from('anything')
    expect(redactor.active).toBe(false)
    expect(redactor.push(read)).toBe(read)
  })
})

describe('sensitiveValues', () => {
  test('takes sensitive inputs only, trims line terminators and leaves out values under 4 characters', () => {
    const scenario = validateScenario({
      executable: 'x',
      events: [
        { type: 'input', at_ms: 0, data: 'plain\r' },
        { type: 'input', at_ms: 1, data: 'hunter2\r\n', sensitive: true },
        { type: 'input', at_ms: 2, data: 'pin\r', sensitive: true },
        { type: 'resize', at_ms: 3, columns: 80, rows: 24 },
        { type: 'input', at_ms: 4, data: 'longer-secret', sensitive: true },
      ],
    })
    expect(sensitiveValues(scenario).map(({ eventIndex, bytes }) => [eventIndex, bytes.toString()])).toEqual([
      [4, 'longer-secret'],
      [1, 'hunter2'],
    ])
  })
})
