// Frozen: captures commit PORT_NORMALIZATION_VERSION, so a change to what counts as a port needs a new module.

/** The port rules committed by captures with `normalization.ports: true`. */
export const PORT_NORMALIZATION_VERSION = 'endpoint-ports-v1'
/** What a recognised port number becomes; the text around it is kept. */
export const PORT_PLACEHOLDER = '<port>'

const MAX_PORT = 65_535

// A value may be quoted JSON/YAML style (`"port": "8080"`) and separated by `:`, `=` or blanks.
const FIELD_SEPARATOR = String.raw`["']?(?:[ \t]*[:=][ \t]*|[ \t]+)["']?`
// Octets 0–255 without leading zeros, so `01.2.3.4` or `1.2.3.256` is not an address.
const OCTET = String.raw`(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)`
// At least two colons, as every IPv6 address has; an optional zone (`%eth0`). Keeps `[INFO]:3` out.
const BRACKETED_IPV6 = String.raw`\[(?:[0-9a-f]{0,4}:){2,7}[0-9a-f.]*(?:%[\w.-]+)?\]`
// RFC 3986 userinfo characters: a space, quote or slash ends the authority before any `@`.
const URL_USERINFO = String.raw`[\w.~%!$&'()*+,;=:-]*@`
const URL_HOST = String.raw`[\w.~%-]+`

/**
 * Every recognised form ends with its port digits, captured whole (a prefix never ends in a digit). No two
 * alternatives can match at the same position, as their first characters or words differ, so retrying one
 * position later after a rejection loses nothing. Word boundaries and what follows the digits are checked in
 * code. Without the `u` flag, `i` folds ASCII letters only (under `u`, `ſ` would match `s` in `listen`).
 */
const ENDPOINT = new RegExp(
  [
    String.raw`(?:tcp_port|udp_port|port)${FIELD_SEPARATOR}(?<field>\d+)`,
    String.raw`listen${FIELD_SEPARATOR}:?(?<listen>\d+)`,
    String.raw`(?<=[a-z0-9+.-]):\/\/(?:${URL_USERINFO})?(?:${URL_HOST}|${BRACKETED_IPV6}):(?<url>\d+)`,
    String.raw`${OCTET}(?:\.${OCTET}){3}:(?<ipv4>\d+)`,
    String.raw`${BRACKETED_IPV6}:(?<ipv6>\d+)`,
    String.raw`localhost:(?<localhost>\d+)`,
  ].join('|'),
  'gi',
)

// Every form above contains a colon, `port` or `listen`: text without them is skipped without the full search.
const MAY_HOLD_ENDPOINT = /:|port|listen/i

type EndpointForm = 'field' | 'listen' | 'url' | 'ipv4' | 'ipv6' | 'localhost'

/** Characters that, right before the form, make it part of a longer word (`import`, `mylocalhost`, `1.1.2.3.4`). */
const GLUED_BEFORE: Record<EndpointForm, RegExp | undefined> = {
  field: /[\p{L}\p{N}_]/u,
  listen: /[\p{L}\p{N}_]/u,
  url: undefined,
  ipv4: /[\p{L}\p{N}_.]/u,
  ipv6: undefined,
  localhost: /[\p{L}\p{N}_.-]/u,
}
const WORD_CHARACTER = /[\p{L}\p{N}_]/u
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u
const ASCII_DIGIT = /[0-9]/
// A CSI sequence such as `ESC[32m` ends in a letter, but coloured text after it still starts a word.
// eslint-disable-next-line no-control-regex -- ESC is what introduces the sequence
const ESCAPE_SEQUENCE_START = /\x1b\[[0-?]{0,32}[ -/]{0,4}$/
const ESCAPE_SEQUENCE_FINAL = /[@-~]/
const ESCAPE_LOOKBACK_CHARACTERS = 40

/**
 * Replaces the port number of recognised endpoints with `<port>`: explicit `port`, `tcp_port`, `udp_port` and
 * `listen` fields, URL authorities, IPv4 endpoints, bracketed IPv6 endpoints and `localhost` endpoints. Counters,
 * dimensions, file line numbers, versions, times and bare host labels (`db:5432`) are kept. Runs in linear time.
 *
 * @example
 * normalizePorts('listening on http://127.0.0.1:43127/') // 'listening on http://127.0.0.1:<port>/'
 * normalizePorts('src/a.ts:42:7 80x24 db:5432') // unchanged
 */
export function normalizePorts(text: string): string {
  if (!MAY_HOLD_ENDPOINT.test(text)) {
    return text
  }
  let result = ''
  let copiedUpTo = 0
  let searchFrom = 0
  for (;;) {
    ENDPOINT.lastIndex = searchFrom
    const match = ENDPOINT.exec(text)
    if (match === null) {
      break
    }
    const [form, digits] = matchedForm(match.groups)
    const end = match.index + match[0].length
    if (isPortNumber(digits) && startsWord(text, match.index, form) && endsPort(text, end, form)) {
      result += text.slice(copiedUpTo, end - digits.length) + PORT_PLACEHOLDER
      copiedUpTo = end
      searchFrom = end
    } else {
      // A rejected candidate may hide one that starts inside it (`localhost:1.2.3.4:80`).
      searchFrom = match.index + 1
    }
  }
  return copiedUpTo === 0 ? text : result + text.slice(copiedUpTo)
}

function matchedForm(groups: Record<string, string | undefined> | undefined): [EndpointForm, string] {
  for (const form of ['field', 'listen', 'url', 'ipv4', 'ipv6', 'localhost'] as const) {
    const digits = groups?.[form]
    if (digits !== undefined) {
      return [form, digits]
    }
  }
  throw new Error('internal error: an endpoint match captured no port digits')
}

/** Decimal 0–65535; a leading zero (`08080`) or a sixth digit means this is some other number. */
function isPortNumber(digits: string): boolean {
  return digits.length <= 5 && (digits === '0' || !digits.startsWith('0')) && Number(digits) <= MAX_PORT
}

function startsWord(text: string, index: number, form: EndpointForm): boolean {
  const glued = GLUED_BEFORE[form]
  if (glued === undefined || index === 0) {
    return true
  }
  const before = codePointBefore(text, index)
  if (!glued.test(before)) {
    return true
  }
  return (
    ESCAPE_SEQUENCE_FINAL.test(before) &&
    ESCAPE_SEQUENCE_START.test(text.slice(Math.max(0, index - ESCAPE_LOOKBACK_CHARACTERS), index - 1))
  )
}

/**
 * Whether the digits ending at `end` are a whole port. The end of the chunk counts as a boundary: a chunk far
 * more often ends after a complete number than inside one, and leaving it would keep a random port in the
 * comparison text; a number split inside it differs between runs under either rule.
 */
function endsPort(text: string, end: number, form: EndpointForm): boolean {
  const next = text.codePointAt(end)
  if (next === undefined) {
    return true
  }
  const character = String.fromCodePoint(next)
  if (WORD_CHARACTER.test(character)) {
    return false // `port 8080abc`, `port 80x24`
  }
  const after = text.codePointAt(end + 1)
  const afterCharacter = after === undefined ? undefined : String.fromCodePoint(after)
  switch (character) {
    case '.':
      // `port: 8080.` ends a sentence; `1.2.3` or `8080.5` continues. At the chunk end it is not yet known.
      return afterCharacter !== undefined && !LETTER_OR_DIGIT.test(afterCharacter)
    case ':':
      // A time (`12:30`), a port mapping (`8080:80`) or a line and column (`:42:7`).
      return afterCharacter === undefined || !ASCII_DIGIT.test(afterCharacter)
    case '@':
      // Digits before `@` belong to URL userinfo (`http://user:5432@host/`).
      return false
    case '/':
      // After a field, a number and a slash is a counter (`port 3/10`); after an endpoint it starts a path.
      return isEndpoint(form) || afterCharacter === undefined || !ASCII_DIGIT.test(afterCharacter)
    default:
      return true
  }
}

function isEndpoint(form: EndpointForm): boolean {
  return form !== 'field' && form !== 'listen'
}

/** The whole character before `index`, so a letter outside the BMP counts as a letter. */
function codePointBefore(text: string, index: number): string {
  const start = index >= 2 && isSurrogatePair(text.charCodeAt(index - 2), text.charCodeAt(index - 1)) ? 2 : 1
  return text.slice(index - start, index)
}

function isSurrogatePair(high: number, low: number): boolean {
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff
}
