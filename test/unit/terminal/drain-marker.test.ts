import { describe, expect, test } from 'vitest'
import { createDrainMarker, DrainMarkerFilter } from '../../../src/terminal/drain-marker.js'

const text = (value: string): Buffer => Buffer.from(value, 'latin1')
const MARKER = createDrainMarker()
const BEFORE = text('before\r\n')
const AFTER = text('after\r\n')

function armedFilter(): DrainMarkerFilter {
  const filter = new DrainMarkerFilter(MARKER)
  filter.arm()
  return filter
}

/** Pushes every read and returns what the filter passed on, plus the index of the read that found the marker. */
function pushAll(filter: DrainMarkerFilter, reads: readonly Buffer[]): { data: Buffer; foundAt: number[] } {
  const passed: Buffer[] = []
  const foundAt: number[] = []
  reads.forEach((read, index) => {
    const result = filter.push(read)
    passed.push(result.data)
    if (result.found) {
      foundAt.push(index)
    }
  })
  return { data: Buffer.concat(passed), foundAt }
}

describe('createDrainMarker', () => {
  test('returns an APC string', () => {
    const marker = createDrainMarker()
    expect(marker.toString('latin1').startsWith('\x1b_REA-DRAIN-')).toBe(true)
    expect(marker.toString('latin1').endsWith('\x1b\\')).toBe(true)
    // The APC body must not terminate the string early: printable ASCII only.
    expect(marker.subarray(2, -2).every((byte) => byte >= 0x20 && byte <= 0x7e)).toBe(true)
  })

  test('returns a different marker on every call', () => {
    const markers = new Set(Array.from({ length: 100 }, () => createDrainMarker().toString('latin1')))
    expect(markers.size).toBe(100)
  })

  test('contains no lowercase letters and no newline, which output post-processing would rewrite', () => {
    for (let index = 0; index < 20; index++) {
      const marker = createDrainMarker().toString('latin1')
      expect(marker).not.toMatch(/[a-z\n]/)
    }
  })
})

describe('DrainMarkerFilter', () => {
  test('passes everything through, including the marker, before arm()', () => {
    const filter = new DrainMarkerFilter(MARKER)
    const read = Buffer.concat([BEFORE, MARKER, AFTER])
    expect(filter.push(read)).toEqual({ data: read, found: false })
    expect(filter.push(MARKER.subarray(0, 5))).toEqual({ data: MARKER.subarray(0, 5), found: false })
    expect(filter.found).toBe(false)
    expect(filter.flush()).toEqual(Buffer.alloc(0))
  })

  test('strips a whole marker and keeps the bytes around it in order', () => {
    const filter = armedFilter()
    const result = filter.push(Buffer.concat([BEFORE, MARKER, AFTER]))
    expect(result).toEqual({ data: Buffer.concat([BEFORE, AFTER]), found: true })
    expect(filter.found).toBe(true)
  })

  test('strips a marker that is the whole read', () => {
    const filter = armedFilter()
    expect(filter.push(MARKER)).toEqual({ data: Buffer.alloc(0), found: true })
  })

  test('reports found only once the marker is complete', () => {
    const filter = armedFilter()
    expect(filter.push(MARKER.subarray(0, 10)).found).toBe(false)
    expect(filter.found).toBe(false)
    expect(filter.push(MARKER.subarray(10)).found).toBe(true)
    expect(filter.found).toBe(true)
  })

  test('strips a marker split across 2 reads at every position', () => {
    const failures: string[] = []
    for (let split = 1; split < MARKER.length; split++) {
      const reads = [
        Buffer.concat([BEFORE, MARKER.subarray(0, split)]),
        Buffer.concat([MARKER.subarray(split), AFTER]),
      ]
      const { data, foundAt } = pushAll(armedFilter(), reads)
      if (!data.equals(Buffer.concat([BEFORE, AFTER])) || foundAt.join() !== '1') {
        failures.push(
          `split ${split}: ${JSON.stringify(data.toString('latin1'))}, found at ${foundAt.join()}`,
        )
      }
    }
    expect(failures).toEqual([])
  })

  test('strips a marker split across 3 reads at every pair of positions', () => {
    const failures: string[] = []
    for (let first = 1; first < MARKER.length - 1; first++) {
      for (let second = first + 1; second < MARKER.length; second++) {
        const reads = [
          Buffer.concat([BEFORE, MARKER.subarray(0, first)]),
          MARKER.subarray(first, second),
          Buffer.concat([MARKER.subarray(second), AFTER]),
        ]
        const { data, foundAt } = pushAll(armedFilter(), reads)
        if (!data.equals(Buffer.concat([BEFORE, AFTER])) || foundAt.join() !== '2') {
          failures.push(`splits ${first}, ${second}: ${JSON.stringify(data.toString('latin1'))}`)
        }
      }
    }
    expect(failures).toEqual([])
  })

  test('strips a marker delivered one byte per read', () => {
    const reads = [BEFORE, ...Array.from(MARKER, (byte) => Buffer.from([byte])), AFTER]
    const { data, foundAt } = pushAll(armedFilter(), reads)
    expect(data).toEqual(Buffer.concat([BEFORE, AFTER]))
    expect(foundAt).toEqual([MARKER.length])
  })

  test('passes on bytes before a trailing partial marker at once', () => {
    const filter = armedFilter()
    expect(filter.push(Buffer.concat([BEFORE, MARKER.subarray(0, 12)]))).toEqual({
      data: BEFORE,
      found: false,
    })
  })

  test.for([
    ['an escape sequence that is not the marker', 'a\x1b[0m'],
    ['a marker prefix followed by other bytes', `a${MARKER.subarray(0, 8).toString('latin1')}x`],
    ['a marker prefix that ends before the last byte', `${MARKER.subarray(0, 20).toString('latin1')}!`],
  ] as const)('holds nothing back for %s', ([, read]) => {
    const filter = armedFilter()
    expect(filter.push(text(read))).toEqual({ data: text(read), found: false })
    expect(filter.flush()).toEqual(Buffer.alloc(0))
  })

  test('releases a held prefix with the next read when that read does not continue the marker', () => {
    const filter = armedFilter()
    const prefix = MARKER.subarray(0, 6)
    expect(filter.push(Buffer.concat([BEFORE, prefix])).data).toEqual(BEFORE)
    expect(filter.push(AFTER)).toEqual({ data: Buffer.concat([prefix, AFTER]), found: false })
    expect(filter.flush()).toEqual(Buffer.alloc(0))
  })

  test('strips the marker that follows a released false start', () => {
    const falseStart = MARKER.subarray(0, 9)
    const reads = [Buffer.concat([BEFORE, falseStart]), Buffer.concat([text('Z'), MARKER, AFTER])]
    const { data, foundAt } = pushAll(armedFilter(), reads)
    expect(data).toEqual(Buffer.concat([BEFORE, falseStart, text('Z'), AFTER]))
    expect(foundAt).toEqual([1])
  })

  test('strips a marker that starts right after a held escape byte', () => {
    const { data, foundAt } = pushAll(armedFilter(), [text('a\x1b'), Buffer.concat([MARKER, AFTER])])
    expect(data).toEqual(Buffer.concat([text('a\x1b'), AFTER]))
    expect(foundAt).toEqual([1])
  })

  test('releases held bytes from flush() when the stream ends without the marker', () => {
    const filter = armedFilter()
    const prefix = MARKER.subarray(0, MARKER.length - 1)
    expect(filter.push(Buffer.concat([BEFORE, prefix])).data).toEqual(BEFORE)
    expect(filter.flush()).toEqual(prefix)
    expect(filter.flush()).toEqual(Buffer.alloc(0))
    expect(filter.found).toBe(false)
  })

  test('passes everything after the marker through, including another marker', () => {
    const filter = armedFilter()
    expect(filter.push(MARKER).found).toBe(true)
    expect(filter.push(MARKER.subarray(0, 4))).toEqual({ data: MARKER.subarray(0, 4), found: false })
    expect(filter.push(MARKER)).toEqual({ data: MARKER, found: false })
    expect(filter.flush()).toEqual(Buffer.alloc(0))
    expect(filter.found).toBe(true)
  })

  test('does not strip a different marker', () => {
    const filter = armedFilter()
    const other = createDrainMarker()
    const { data, foundAt } = pushAll(filter, [other, text('x')])
    expect(Buffer.concat([data, filter.flush()])).toEqual(Buffer.concat([other, text('x')]))
    expect(foundAt).toEqual([])
  })
})
