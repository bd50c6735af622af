import { isUtf8 } from 'node:buffer'
import { describe, expect, test } from 'vitest'
import { decodeChunk, incompleteTailLength, Utf8Chunker } from '../../../src/terminal/utf8-chunker.js'

const bytes = (...values: number[]): Buffer => Buffer.from(values)
const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8')

/** Mulberry32: a tiny seeded PRNG, so a failing stream can be regenerated from its seed. */
function createRandom(seed: number): (below: number) => number {
  let state = seed >>> 0
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below)
  }
}

const CODE_POINT_RANGES: readonly (readonly [number, number])[] = [
  [0x20, 0x7e],
  [0x80, 0x7ff],
  [0x800, 0xd7ff],
  [0xe000, 0xffff],
  [0x10000, 0x10ffff],
]

function randomValidText(random: (below: number) => number, characters: number): string {
  let text = ''
  for (let index = 0; index < characters; index++) {
    const [low, high] = CODE_POINT_RANGES[random(CODE_POINT_RANGES.length)]!
    text += String.fromCodePoint(low + random(high - low + 1))
  }
  return text
}

/** Valid characters mixed with arbitrary bytes, so truncated, overlong and surrogate sequences all occur. */
function randomByteStream(random: (below: number) => number, pieces: number): Buffer {
  const parts: Buffer[] = []
  for (let index = 0; index < pieces; index++) {
    if (random(3) === 0) {
      parts.push(Buffer.from(Array.from({ length: 1 + random(4) }, () => 0x80 + random(0x80))))
    } else {
      const encoded = utf8(randomValidText(random, 1))
      // Sometimes drop the end of a character, leaving a truncated sequence inside the stream.
      parts.push(random(5) === 0 ? encoded.subarray(0, Math.max(1, encoded.length - 1)) : encoded)
    }
  }
  return Buffer.concat(parts)
}

function cutIntoReads(random: (below: number) => number, stream: Buffer): Buffer[] {
  const reads: Buffer[] = []
  for (let at = 0; at < stream.length;) {
    const length = random(9)
    reads.push(Buffer.from(stream.subarray(at, at + length)))
    at += length
  }
  return reads
}

function chunkAll(reads: readonly Buffer[]): { chunks: Buffer[]; ended: Buffer | undefined } {
  const chunker = new Utf8Chunker()
  const chunks: Buffer[] = []
  for (const read of reads) {
    const chunk = chunker.push(read)
    if (chunk !== undefined) {
      chunks.push(chunk)
    }
  }
  return { chunks, ended: chunker.end() }
}

describe('incompleteTailLength', () => {
  test.for([
    ['an empty buffer', bytes()],
    ['ASCII text', utf8('abc')],
    ['a complete 2-byte character', utf8('aé')],
    ['a complete 3-byte character', utf8('a€')],
    ['a complete 4-byte character', utf8('a😀')],
    ['a lone continuation byte', bytes(0x61, 0x80)],
    ['three stray continuation bytes', bytes(0x80, 0x80, 0x80)],
    ['a 2-byte lead followed by ASCII', bytes(0xc3, 0x41)],
    ['a 3-byte lead followed by ASCII', bytes(0xe2, 0x41)],
    ['a 4-byte lead and continuation followed by ASCII', bytes(0xf0, 0x9f, 0x41)],
  ] as const)('returns 0 for %s', ([, input]) => {
    expect(incompleteTailLength(input)).toBe(0)
  })

  test.for([
    ['C2', [0xc2], 1],
    ['DF', [0xdf], 1],
    ['E1', [0xe1], 1],
    ['E1 80', [0xe1, 0x80], 2],
    ['E0 A0', [0xe0, 0xa0], 2],
    ['E0 BF', [0xe0, 0xbf], 2],
    ['ED 80', [0xed, 0x80], 2],
    ['ED 9F', [0xed, 0x9f], 2],
    ['EF BF', [0xef, 0xbf], 2],
    ['F0', [0xf0], 1],
    ['F0 90', [0xf0, 0x90], 2],
    ['F0 BF', [0xf0, 0xbf], 2],
    ['F0 9F 98', [0xf0, 0x9f, 0x98], 3],
    ['F1 80 80', [0xf1, 0x80, 0x80], 3],
    ['F4', [0xf4], 1],
    ['F4 80', [0xf4, 0x80], 2],
    ['F4 8F BF', [0xf4, 0x8f, 0xbf], 3],
  ] as const)('holds back the valid prefix %s', ([, prefix, expected]) => {
    expect(incompleteTailLength(bytes(...prefix))).toBe(expected)
    expect(incompleteTailLength(Buffer.concat([utf8('x€'), bytes(...prefix)]))).toBe(expected)
  })

  test.for([
    ['C0 (overlong lead)', [0xc0]],
    ['C1 (overlong lead)', [0xc1]],
    ['E0 80 (overlong)', [0xe0, 0x80]],
    ['E0 9F (overlong)', [0xe0, 0x9f]],
    ['ED A0 (surrogate)', [0xed, 0xa0]],
    ['ED BF (surrogate)', [0xed, 0xbf]],
    ['F0 80 (overlong)', [0xf0, 0x80]],
    ['F0 8F 80 (overlong)', [0xf0, 0x8f, 0x80]],
    ['F4 90 (above U+10FFFF)', [0xf4, 0x90]],
    ['F4 90 80 (above U+10FFFF)', [0xf4, 0x90, 0x80]],
    ['F5 (never a lead)', [0xf5]],
    ['F8 (never a lead)', [0xf8]],
    ['FF (never a lead)', [0xff]],
  ] as const)('does not hold back the invalid sequence %s', ([, sequence]) => {
    expect(incompleteTailLength(Buffer.concat([utf8('x'), bytes(...sequence)]))).toBe(0)
  })

  test('never reports more than 3 bytes', () => {
    expect(incompleteTailLength(bytes(0xf0, 0x90, 0x80, 0x80, 0x80))).toBe(0)
  })
})

describe('Utf8Chunker', () => {
  test('passes a read of whole characters through unchanged', () => {
    const chunker = new Utf8Chunker()
    const read = utf8('héllo €😀')
    expect(chunker.push(read)).toEqual(read)
    expect(chunker.end()).toBeUndefined()
  })

  test.for([1, 2, 3])('records a 4-byte character split after byte %i whole with the next read', (split) => {
    const character = utf8('😀')
    const chunker = new Utf8Chunker()
    expect(chunker.push(Buffer.concat([utf8('a'), character.subarray(0, split)]))).toEqual(utf8('a'))
    expect(chunker.push(Buffer.concat([character.subarray(split), utf8('b')]))).toEqual(utf8('😀b'))
    expect(chunker.end()).toBeUndefined()
  })

  test.for([1, 2])('records a 3-byte character split after byte %i whole with the next read', (split) => {
    const character = utf8('€')
    const chunker = new Utf8Chunker()
    expect(chunker.push(character.subarray(0, split))).toBeUndefined()
    expect(chunker.push(character.subarray(split))).toEqual(character)
  })

  test('returns undefined until a character delivered one byte per read is complete', () => {
    const chunker = new Utf8Chunker()
    const character = utf8('😀')
    expect(chunker.push(character.subarray(0, 1))).toBeUndefined()
    expect(chunker.push(character.subarray(1, 2))).toBeUndefined()
    expect(chunker.push(character.subarray(2, 3))).toBeUndefined()
    expect(chunker.push(character.subarray(3, 4))).toEqual(character)
  })

  test('returns undefined for an empty read', () => {
    const chunker = new Utf8Chunker()
    expect(chunker.push(bytes())).toBeUndefined()
    expect(chunker.end()).toBeUndefined()
  })

  test('keeps held-back bytes across an empty read', () => {
    const chunker = new Utf8Chunker()
    expect(chunker.push(bytes(0xe2, 0x82))).toBeUndefined()
    expect(chunker.push(bytes())).toBeUndefined()
    expect(chunker.push(bytes(0xac))).toEqual(utf8('€'))
  })

  test('does not hold back an invalid sequence', () => {
    const chunker = new Utf8Chunker()
    expect(chunker.push(bytes(0x61, 0xe0, 0x80))).toEqual(bytes(0x61, 0xe0, 0x80))
    expect(chunker.end()).toBeUndefined()
  })

  test('keeps its own copy of held-back bytes when the caller reuses the read buffer', () => {
    const chunker = new Utf8Chunker()
    const read = bytes(0x61, 0xe2, 0x82)
    chunker.push(read)
    read.fill(0x7a)
    expect(chunker.push(bytes(0xac))).toEqual(utf8('€'))
  })

  test('returns the held-back partial character from end(), once', () => {
    const chunker = new Utf8Chunker()
    expect(chunker.push(bytes(0x61, 0xf0, 0x9f, 0x98))).toEqual(utf8('a'))
    expect(chunker.end()).toEqual(bytes(0xf0, 0x9f, 0x98))
    expect(chunker.end()).toBeUndefined()
  })

  test.for([1, 2, 3, 4, 5])(
    'reproduces a random byte stream exactly and cuts it only at decoding boundaries (seed %i)',
    (seed) => {
      const random = createRandom(seed)
      for (let iteration = 0; iteration < 200; iteration++) {
        const stream = randomByteStream(random, 1 + random(40))
        const reads = cutIntoReads(random, stream)
        const { chunks, ended } = chunkAll(reads)
        const all = ended === undefined ? chunks : [...chunks, ended]
        const where = `seed ${seed}, iteration ${iteration}, stream ${stream.toString('hex')}`

        expect(Buffer.concat(all).equals(stream), where).toBe(true)
        expect(
          all.every((chunk) => chunk.length > 0),
          where,
        ).toBe(true)
        // Each prefix of chunks decodes to the concatenation of the chunks' own texts: no cut splits a character.
        let texts = ''
        let prefixLength = 0
        for (const chunk of all) {
          texts += decodeChunk(chunk).text
          prefixLength += chunk.length
          expect(texts, where).toBe(stream.subarray(0, prefixLength).toString('utf8'))
        }
        expect(texts, where).toBe(stream.toString('utf8'))
      }
    },
  )

  test.for([11, 12, 13])('holds back at most 3 bytes after any read of a random stream (seed %i)', (seed) => {
    const random = createRandom(seed)
    for (let iteration = 0; iteration < 200; iteration++) {
      const stream = randomByteStream(random, 1 + random(40))
      const chunker = new Utf8Chunker()
      let readBytes = 0
      let chunkBytes = 0
      for (const read of cutIntoReads(random, stream)) {
        readBytes += read.length
        chunkBytes += chunker.push(read)?.length ?? 0
        expect(readBytes - chunkBytes, `seed ${seed}, iteration ${iteration}`).toBeLessThanOrEqual(3)
      }
    }
  })

  test.for([21, 22, 23])('cuts valid UTF-8 into chunks that are each valid UTF-8 (seed %i)', (seed) => {
    const random = createRandom(seed)
    for (let iteration = 0; iteration < 200; iteration++) {
      const text = randomValidText(random, 1 + random(30))
      const { chunks, ended } = chunkAll(cutIntoReads(random, utf8(text)))
      const where = `seed ${seed}, iteration ${iteration}, text ${JSON.stringify(text)}`

      expect(ended, where).toBeUndefined()
      expect(
        chunks.every((chunk) => isUtf8(chunk)),
        where,
      ).toBe(true)
      expect(chunks.map((chunk) => chunk.toString('utf8')).join(''), where).toBe(text)
    }
  })
})

describe('decodeChunk', () => {
  test('decodes valid UTF-8 and keeps the original bytes', () => {
    const input = utf8('a€😀')
    const decoded = decodeChunk(input)
    expect(decoded).toEqual({ bytes: input, text: 'a€😀', valid: true })
    expect(decoded.bytes).toBe(input)
  })

  test('decodes an empty chunk as valid empty text', () => {
    expect(decodeChunk(bytes())).toEqual({ bytes: bytes(), text: '', valid: true })
  })

  test.for([
    ['a byte that is never valid', [0x61, 0xff], 'a\uFFFD'],
    ['a truncated character', [0xe2, 0x82], '\uFFFD'],
    ['an overlong encoding', [0xc0, 0xaf], '\uFFFD\uFFFD'],
    ['an encoded surrogate', [0xed, 0xa0, 0x80], '\uFFFD\uFFFD\uFFFD'],
  ] as const)('marks %s invalid and replaces it with U+FFFD', ([, input, text]) => {
    expect(decodeChunk(bytes(...input))).toEqual({ bytes: bytes(...input), text, valid: false })
  })
})
