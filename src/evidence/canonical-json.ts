import { createHash } from 'node:crypto'

/**
 * JSON with object keys sorted (by UTF-16 code units) at every level and `undefined` fields dropped, so equal
 * values always serialize to identical text. `indent` 0 gives the compact form digests are computed over.
 */
export function canonicalJson(value: unknown, indent = 0): string {
  // JSON.stringify returns undefined for a bare undefined despite its declared type; canonical JSON writes null.
  return value === undefined ? 'null' : JSON.stringify(sortKeys(value), null, indent)
}

/** Canonical JSON as written to files: two-space indent and a trailing newline, so diffs are reviewable. */
export function canonicalJsonDocument(value: unknown): string {
  return `${canonicalJson(value, 2)}\n`
}

/** Lowercase hex SHA-256 of the compact canonical JSON. */
export function canonicalDigest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex')
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map((item) => (item === undefined ? null : sortKeys(item)))
  }
  if (typeof value === 'number' && Object.is(value, -0)) {
    return 0
  }
  if (typeof value !== 'object' || value === null) {
    return value
  }
  const sorted: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort()) {
    const field = (value as Record<string, unknown>)[key]
    if (field !== undefined) {
      sorted[key] = sortKeys(field)
    }
  }
  return sorted
}
