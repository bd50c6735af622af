import { createHash } from 'node:crypto'

/**
 * JSON with object keys sorted by UTF-16 code units at every level (as RFC 8785 does) and `undefined` fields
 * dropped, so equal values always serialize to identical text. `indent` 0 gives the compact form digests are
 * computed over.
 */
export function canonicalJson(value: unknown, indent = 0): string {
  // A bare undefined has no JSON form; canonical JSON writes null, as JSON.stringify does inside arrays.
  const sorted = sortedCopy(value === undefined ? null : value)
  if (sorted !== HAS_INDEX_KEYS) {
    return JSON.stringify(sorted, null, indent)
  }
  const parts: string[] = []
  write(value, parts, indent === 0 ? '' : ' '.repeat(indent), '')
  return parts.join('')
}

/** Canonical JSON as written to files: two-space indent and a trailing newline, so diffs are reviewable. */
export function canonicalJsonDocument(value: unknown): string {
  return `${canonicalJson(value, 2)}\n`
}

/** Lowercase hex SHA-256 of the compact canonical JSON. */
export function canonicalDigest(value: unknown): string {
  // Hashing a string directly takes Node's slow path for large documents: encode first.
  return createHash('sha256')
    .update(Buffer.from(canonicalJson(value), 'utf8'))
    .digest('hex')
}

const HAS_INDEX_KEYS = Symbol('has index keys')

/** Keys JavaScript orders first, numerically, in every object, whatever order the object was built in. */
function isIndexKey(key: string): boolean {
  const first = key.charCodeAt(0)
  return first >= 48 && first <= 57 && /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 4294967295
}

/**
 * The fast path: a copy with keys inserted in sorted order, which JSON.stringify then writes in that order.
 * Returns HAS_INDEX_KEYS when an object has integer-like keys, for which that does not hold.
 */
function sortedCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') {
    return value
  }
  if (Array.isArray(value)) {
    const copy: unknown[] = []
    for (const item of value as unknown[]) {
      const sorted = sortedCopy(item === undefined ? null : item)
      if (sorted === HAS_INDEX_KEYS) {
        return HAS_INDEX_KEYS
      }
      copy.push(sorted)
    }
    return copy
  }
  const record = value as Record<string, unknown>
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(record).sort()) {
    const field = record[key]
    if (field === undefined) {
      continue
    }
    if (isIndexKey(key)) {
      return HAS_INDEX_KEYS
    }
    const sorted = sortedCopy(field)
    if (sorted === HAS_INDEX_KEYS) {
      return HAS_INDEX_KEYS
    }
    copy[key] = sorted
  }
  return copy
}

/** The slow path, written by hand for objects with integer-like keys. */
function write(value: unknown, parts: string[], step: string, margin: string): void {
  if (value === null || value === undefined || typeof value !== 'object') {
    parts.push(JSON.stringify(value ?? null))
    return
  }
  const inner = step === '' ? '' : `${margin}${step}`
  const open = step === '' ? '' : `\n${inner}`
  const separator = step === '' ? ',' : `,\n${inner}`
  const close = step === '' ? '' : `\n${margin}`
  if (Array.isArray(value)) {
    if (value.length === 0) {
      parts.push('[]')
      return
    }
    parts.push('[', open)
    value.forEach((item: unknown, index) => {
      if (index > 0) {
        parts.push(separator)
      }
      write(item, parts, step, inner)
    })
    parts.push(close, ']')
    return
  }
  const record = value as Record<string, unknown>
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
  if (keys.length === 0) {
    parts.push('{}')
    return
  }
  parts.push('{', open)
  keys.forEach((key, index) => {
    if (index > 0) {
      parts.push(separator)
    }
    parts.push(JSON.stringify(key), step === '' ? ':' : ': ')
    write(record[key], parts, step, inner)
  })
  parts.push(close, '}')
}
