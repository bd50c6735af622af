import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import {
  canonicalDigest,
  canonicalJson,
  canonicalJsonDocument,
} from '../../../src/evidence/canonical-json.js'

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')

describe('canonicalJson', () => {
  test('sorts object keys at every depth, including objects inside arrays', () => {
    const value = { b: 1, a: { d: [{ f: 1, e: 2 }], c: null } }
    expect(canonicalJson(value)).toBe('{"a":{"c":null,"d":[{"e":2,"f":1}]},"b":1}')
  })

  test('sorts keys by UTF-16 code units', () => {
    // U+1F600 is stored as the surrogates D83D DE00, which sort before U+FF00 by code unit.
    const value = { '\uff00': 1, '\u{1f600}': 2, a: 3, B: 4, é: 5 }
    expect(canonicalJson(value)).toBe('{"B":4,"a":3,"é":5,"\u{1f600}":2,"\uff00":1}')
  })

  test('sorts integer-like keys as strings too, unlike a JavaScript object’s own key order', () => {
    expect(canonicalJson({ '2': 'a', '10': 'b', b: 1, A: 0 })).toBe('{"10":"b","2":"a","A":0,"b":1}')
    expect(canonicalJson({ x: { '9': 1, '10': 2 } }, 2)).toBe('{\n  "x": {\n    "10": 2,\n    "9": 1\n  }\n}')
  })

  test('keeps array order', () => {
    expect(canonicalJson([3, 1, 2])).toBe('[3,1,2]')
  })

  test('drops undefined fields at every depth', () => {
    expect(canonicalJson({ a: undefined, b: { c: undefined, d: 1 }, e: [{ f: undefined }] })).toBe(
      '{"b":{"d":1},"e":[{}]}',
    )
  })

  test('writes undefined array items as null', () => {
    expect(canonicalJson([1, undefined, { a: [undefined] }])).toBe('[1,null,{"a":[null]}]')
  })

  test('writes a bare undefined as null', () => {
    expect(canonicalJson(undefined)).toBe('null')
  })

  test('writes -0 as 0', () => {
    expect(canonicalJson({ a: -0, b: [-0] })).toBe('{"a":0,"b":[0]}')
    expect(canonicalJson(-0)).toBe('0')
  })

  test.for([
    ['a string', 'a"b\n', '"a\\"b\\n"'],
    ['a number', 1.5, '1.5'],
    ['true', true, 'true'],
    ['null', null, 'null'],
  ] as const)('writes %s as JSON does', ([, value, expected]) => {
    expect(canonicalJson(value)).toBe(expected)
  })

  test('writes the compact form without whitespace by default', () => {
    expect(canonicalJson({ a: [1, { b: 2 }] })).toBe('{"a":[1,{"b":2}]}')
  })

  test('does not modify its input', () => {
    const value = { b: 1, a: { d: undefined, c: -0 } }
    canonicalJson(value)
    expect(Object.keys(value)).toEqual(['b', 'a'])
    expect(Object.keys(value.a)).toEqual(['d', 'c'])
    expect(Object.is(value.a.c, -0)).toBe(true)
  })
})

describe('canonicalJsonDocument', () => {
  test('indents by two spaces and ends with a newline', () => {
    expect(canonicalJsonDocument({ b: [1], a: { c: true } })).toBe(
      '{\n  "a": {\n    "c": true\n  },\n  "b": [\n    1\n  ]\n}\n',
    )
  })

  test('writes a bare undefined as a null document', () => {
    expect(canonicalJsonDocument(undefined)).toBe('null\n')
  })
})

describe('canonicalDigest', () => {
  test('is the lowercase hex SHA-256 of the compact canonical JSON', () => {
    const digest = canonicalDigest({ b: 1, a: 2 })
    expect(digest).toMatch(/^[0-9a-f]{64}$/)
    expect(digest).toBe(sha256('{"a":2,"b":1}'))
  })

  test('matches the well-known SHA-256 of {}', () => {
    expect(canonicalDigest({})).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a')
  })

  test('is equal for objects whose keys were inserted in a different order', () => {
    const first = { a: 1, nested: { x: [1, 2], y: 'z' }, b: undefined }
    const second = { nested: { y: 'z', x: [1, 2] }, a: 1 }
    expect(canonicalDigest(first)).toBe(canonicalDigest(second))
  })

  test('differs when a value differs', () => {
    expect(canonicalDigest({ a: 1 })).not.toBe(canonicalDigest({ a: 2 }))
    expect(canonicalDigest([1, 2])).not.toBe(canonicalDigest([2, 1]))
  })
})
