import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { isPlainObject } from '../internal/plain-object.js'
import { writeFileAtomicSync } from '../internal/write-file-atomic.js'

/** A source map as version 3 of the format writes it; REA writes `sources` as absolute paths, no `sourceRoot`. */
export interface RawSourceMap {
  readonly version: 3
  readonly file?: string
  readonly sources: readonly string[]
  readonly sourcesContent?: readonly (string | null)[]
  readonly names: readonly string[]
  readonly mappings: string
}

/** The last `sourceMappingURL` comment of a script, as Node and the coverage converters find it. */
const SOURCE_MAPPING_URL = /\/\/[#@][ \t]*sourceMappingURL=([^\s'"]+)[ \t]*$/gm

/**
 * The source map of a script run from `file` (its `code`): the map it names (a file, or a `data:` URL), with
 * every source made an absolute path, so it reads the same wherever the map is written; otherwise an identity
 * map, which maps every column of the file to itself. A converter given a map reports a file under the map's
 * source, which is how a runner's converter (Jest's v8-to-istanbul) can be handed a script under a second
 * spelling of its path and still report it under the real one.
 */
export function scriptSourceMap(file: string, code: string): RawSourceMap {
  const named = [...code.matchAll(SOURCE_MAPPING_URL)].at(-1)?.[1]
  const own = named === undefined ? undefined : readNamedMap(file, named)
  return own ?? identitySourceMap(file, code)
}

/**
 * Writes `map` into `folder` under a name derived from its content (written once, then reused, by any process)
 * and returns its path.
 */
export function writeSourceMap(map: RawSourceMap, folder: string): string {
  const text = JSON.stringify(map)
  const target = path.join(folder, `${createHash('sha256').update(text).digest('hex').slice(0, 32)}.map`)
  if (!existsSync(target)) {
    mkdirSync(folder, { recursive: true })
    writeFileAtomicSync(target, text)
  }
  return target
}

function readNamedMap(file: string, named: string): RawSourceMap | undefined {
  try {
    if (named.startsWith('data:')) {
      const comma = named.indexOf(',')
      const payload = named.slice(comma + 1)
      const text = named.slice(0, comma).endsWith(';base64')
        ? Buffer.from(payload, 'base64').toString('utf8')
        : decodeURIComponent(payload)
      return absoluteSources(JSON.parse(text), path.dirname(file))
    }
    const mapFile = named.startsWith('file:') ? fileURLToPath(named) : path.resolve(path.dirname(file), named)
    return absoluteSources(JSON.parse(readFileSync(mapFile, 'utf8')), path.dirname(mapFile))
  } catch {
    // A map that is missing or not JSON: the file is reported as it is, as Node itself would run it.
    return undefined
  }
}

/** The map with its sources resolved against its own folder and `sourceRoot`, and their text filled in. */
function absoluteSources(parsed: unknown, base: string): RawSourceMap | undefined {
  if (!isPlainObject(parsed)) {
    return undefined
  }
  const { version, sources, sourcesContent, sourceRoot, names, mappings } = parsed
  if (version !== 3 || !isStringArray(sources) || typeof mappings !== 'string') {
    return undefined
  }
  const root = typeof sourceRoot === 'string' ? sourceRoot.replace(/^file:\/\//, '') : ''
  const absolute = sources.map((source) =>
    source.startsWith('file:') ? fileURLToPath(source) : path.resolve(base, root, source),
  )
  const given: readonly unknown[] = Array.isArray(sourcesContent) ? sourcesContent : []
  return {
    version: 3,
    sources: absolute,
    sourcesContent: absolute.map((source, index) => {
      const text = given[index]
      return typeof text === 'string' ? text : readOrNull(source)
    }),
    names: isStringArray(names) ? names : [],
    mappings,
  }
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string')
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return null // a source that is gone: the converter reports it without text, as it would anyway
  }
}

/** Base64 digits of the source map format's variable-length quantities. */
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

function vlq(value: number): string {
  let rest = value < 0 ? (-value << 1) | 1 : value << 1
  let digits = ''
  do {
    let digit = rest & 31
    rest >>>= 5
    if (rest > 0) {
      digit |= 32
    }
    digits += BASE64.charAt(digit)
  } while (rest > 0)
  return digits
}

/**
 * A map from the file to itself, one segment per column: a converter then maps every range exactly where it was
 * (a map per line would stretch a range's end to the next line), and reports the file under its real path.
 */
export function identitySourceMap(file: string, code: string): RawSourceMap {
  // Segment fields: generated column (from 0 on each line), source index, source line, source column; all but the
  // first are relative to the previous segment, across lines.
  const nextColumn = `,${vlq(1)}${vlq(0)}${vlq(0)}${vlq(1)}`
  let previousColumn = 0
  const mappings = code.split('\n').map((line, index) => {
    const columns = Math.max(line.length, 1)
    const first = vlq(0) + vlq(0) + vlq(index === 0 ? 0 : 1) + vlq(-previousColumn)
    previousColumn = columns - 1
    return first + nextColumn.repeat(columns - 1)
  })
  return { version: 3, sources: [file], sourcesContent: [code], names: [], mappings: mappings.join(';') }
}
