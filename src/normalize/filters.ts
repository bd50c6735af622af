import type { FILTER_NAMES } from '../scenario/schema.js'
import type { RuleMatch, StreamRule } from './stream-rule.js'

// Frozen: captures commit this version, so a change to what a filter matches or writes needs a new module. A new
// name is not such a change (no existing capture names it): `measured_durations` joined v2 that way.

/**
 * The semantics of `normalization.filters` committed by captures that use them. v2: `durations` also takes the
 * share list Vitest 5 prints after its run's duration; `timestamps` takes dates without a time and `temp_names`
 * the temporary names of Node's mkdtemp, Python's tempfile (with a suffix) and Go's build folders (FILTERS_V2 in
 * filters-v2.ts), and `measured_durations` is a name added to v2 (see its definition). v1 captures stay readable;
 * they compare only with v1.
 */
export const FILTER_NORMALIZATION_VERSION = 'builtin-filters-v2'

/** Built-in filters; their order in `FILTER_NAMES` decides between two matches at the same position. */
export type FilterName = (typeof FILTER_NAMES)[number]

export const FILTER_TOKENS: Readonly<Record<FilterName, string>> = {
  uuids: '[UUID]',
  timestamps: '[TIMESTAMP]',
  durations: '[DURATION]',
  hex_ids: '[HEX_ID]',
  temp_names: '[TEMP_NAME]',
  measured_durations: '[DURATION]',
}

/**
 * No filter match is longer than this, with the two characters after it that decide its end: every quantifier
 * below is bounded, so text this far back from the end of what has arrived can no longer change.
 */
export const FILTER_WINDOW_CHARACTERS = 256

// A colour sequence (SGR) may sit between a number and its unit, as in Vitest's `3ESC[2mms`.
export const SGR = String.raw`\x1b\[[0-9;:]{0,24}m`
// Starts a token: the text start, a non-word character, or the end of a control sequence (`ESC[1m12ms`);
// never inside a control sequence's parameters (`ESC[22m` holds no duration).
export const START = String.raw`(?<!\x1b\[[0-?]{0,32})(?<=^|[^\p{L}\p{N}_.]|\x1b\[[0-?]{0,32}[ -/]{0,4}[@-~])`
// Ends a token: not followed by a letter, digit or underscore, nor by a decimal point and a digit.
export const END = String.raw`(?![\p{L}\p{N}_]|[.,]\d)`
const NUMBER = String.raw`\d{1,12}(?:[.,]\d{1,9})?`
// A number with a decimal part: what a clock measured, never a value someone configured (`retrying in 5s`).
const FRACTIONAL_NUMBER = String.raw`\d{1,12}[.,]\d{1,9}`
const GAP = String.raw`(?:${SGR}){0,3}[ \u00a0]?(?:${SGR}){0,3}`
// µs with the micro sign or the Greek mu, as escapes: the CLI's bundles hold no character beyond Latin-1 (tsup.config.ts).
const SMALL_UNIT = String.raw`(?:ns|[\u00b5\u03bcu]s|ms|s|secs?|seconds?)`
const LARGE_UNIT = String.raw`(?:h|hrs?|hours?|m|mins?|minutes?)`
const ANY_UNIT = String.raw`(?:ns|[\u00b5\u03bcu]s|ms|secs?|seconds?|s|mins?|minutes?|hrs?|hours?|h)`
// The key in lower, capitalised or upper case, so a filter read with case finds `Duration: 12.5` and `ELAPSED=3.1`.
const DURATION_KEY = String.raw`[\p{L}\p{N}_.-]{0,24}(?:[Dd]uration|[Ee]lapsed|DURATION|ELAPSED)[\p{L}\p{N}_.-]{0,24}["']?[ \t]{0,3}[:=]?[ \t]{0,3}["']?`
// Vitest 5 follows a run's duration with each phase's share of it, largest first and phases under 0.5 % left out,
// so names, numbers and order all change from run to run: `475ms (tests 37%, transform 34%, worker 7%)`. The list
// goes with the duration it belongs to.
const SHARE = String.raw`\p{L}[\p{L}_-]{0,15} \d{1,3}%`
const SHARES = String.raw`(?:(?:${SGR})?[ \u00a0]\(${SHARE}(?:, ${SHARE}){0,7}\))?`

export const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)'
export const WEEKDAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)'
export const CLOCK = String.raw`\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?`
export const ZONE = String.raw`(?:Z|[+-]\d{2}:?\d{2})`

/** The spellings of a date or time `timestamps` replaces under v1, longest first where two could start alike. */
export const TIMESTAMP_FORMS_V1: readonly string[] = [
  // `date`: Fri Dec  4 17:37:58 UTC 2026; git: Fri Dec 4 17:37:58 2026 +0000
  String.raw`${WEEKDAY} ${MONTH} [ \d]?\d ${CLOCK}(?: [A-Z]{1,5})? \d{4}(?: [+-]\d{4})?`,
  // JavaScript's Date#toString: Fri Dec 04 2026 17:37:58 GMT+0000 (Coordinated Universal Time)
  String.raw`${WEEKDAY} ${MONTH} \d{2} \d{4} ${CLOCK} GMT[+-]\d{4}(?: \([^()\n]{1,64}\))?`,
  // RFC 1123 / HTTP: Fri, 04 Dec 2026 17:37:58 GMT
  String.raw`${WEEKDAY}, \d{2} ${MONTH} \d{4} ${CLOCK}(?: (?:GMT|UTC|[+-]\d{4}))?`,
  // ISO 8601: 2026-12-04, 2026-12-04T17:37:58.123Z, 2026-12-04 17:37:58+01:00
  String.raw`\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?${ZONE}?)?`,
  // Common Log Format and Python's http.server: 04/Dec/2026:17:37:58 +0000, 04/Dec/2026 17:37:58
  String.raw`\d{2}/${MONTH}/\d{4}[: ]${CLOCK}(?: [+-]\d{4})?`,
  // ls -l: Dec  4 17:37
  String.raw`${MONTH} [ \d]\d \d{2}:\d{2}(?::\d{2})?(?![:\d])`,
  // A clock time alone: 17:37:58, 5:07:09.123 PM
  String.raw`(?<![\d:])\d{1,2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?: ?[AaPp][Mm])?(?![\d:])`,
]

/** The numbers a duration filter takes, and whether its units are read without regard to case. */
interface DurationNumbers {
  /** The number the filter takes in the plain and key forms, and as the last part of a compound. */
  readonly number: string
  /** With `i` units are read in any case: `durations` has read `5 MS` and `2 Min` since v1. */
  readonly flags: 'giu' | 'gu'
}

/** `durations`: whole and fractional numbers, units in any case (v1's semantics, unchanged). */
const WHOLE_OR_FRACTIONAL_DURATION: DurationNumbers = { number: NUMBER, flags: 'giu' }
/**
 * `measured_durations`: only numbers with a decimal part, where the program printed what a clock measured; units
 * in lower case only, so du's `1.5M` (megabytes) is never read as minutes.
 */
const MEASURED_DURATION: DurationNumbers = { number: FRACTIONAL_NUMBER, flags: 'gu' }

/**
 * The three forms of a duration, sharing boundaries, the colour sequences allowed between number and unit, and
 * the key that is kept: one builder for both duration filters, so they differ only in the numbers they take.
 */
function durationRegex({ number, flags }: DurationNumbers): RegExp {
  return new RegExp(
    START +
      '(?:' +
      [
        // A key that names a duration, then a bare number: duration_ms 110.2, "elapsed": 12
        String.raw`${DURATION_KEY}(?<value>${number}(?:${GAP}${ANY_UNIT}${SHARES})?)`,
        // 1h 2m 3.4s, 2m3s: the larger parts are any number, the last is the filter's kind
        String.raw`(?:${NUMBER}${GAP}${LARGE_UNIT}${GAP}){1,3}${number}${GAP}${SMALL_UNIT}${SHARES}`,
        // 4.898ms, 1.2 s, 0.000s, 3ESC[2mms, 2 minutes, 1h
        String.raw`${number}${GAP}${ANY_UNIT}${SHARES}`,
      ].join('|') +
      ')' +
      END,
    flags,
  )
}

export interface FilterDefinition {
  /** A new expression for each rule: built only where the filter is used (one with `\p{…}` costs at creation). */
  readonly regex: () => RegExp
  /** Keeps part of the match: only the named group `value` is replaced, when present. */
  readonly keepsContext: boolean
}

/**
 * The definitions `builtin-filters-v2` keeps from v1 (FILTERS_V2 replaces timestamps and temp_names), with
 * durations as v2 reads it: Vitest 5's share list after a duration. New captures use FILTERS_V2.
 */
export const FILTERS_V1: Readonly<Record<FilterName, FilterDefinition>> = {
  uuids: {
    regex: () =>
      new RegExp(
        String.raw`(?<![\p{L}\p{N}_-])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![\p{L}\p{N}_-])`,
        'gu',
      ),
    keepsContext: false,
  },
  timestamps: {
    regex: () => new RegExp(`${START}(?:${TIMESTAMP_FORMS_V1.join('|')})${END}`, 'gu'),
    keepsContext: false,
  },
  durations: {
    regex: () => durationRegex(WHOLE_OR_FRACTIONAL_DURATION),
    keepsContext: true,
  },
  hex_ids: {
    // At least one digit and one letter a-f: ordinary words (`facade`, `decade`) and plain numbers are kept.
    regex: () =>
      new RegExp(
        String.raw`(?<![\p{L}\p{N}_-])(?:0x)?(?:(?=[0-9a-f]{0,63}[0-9])(?=[0-9a-f]{0,63}[a-f])[0-9a-f]{7,64}|(?=[0-9A-F]{0,63}[0-9])(?=[0-9A-F]{0,63}[A-F])[0-9A-F]{7,64})(?![\p{L}\p{N}_-])`,
        'gu',
      ),
    keepsContext: false,
  },
  temp_names: {
    // mktemp: tmp.XXXXXXXXXX (ten letters or digits); Python's tempfile: tmp + eight of [a-z0-9_]
    regex: () =>
      new RegExp(
        String.raw`(?<![\p{L}\p{N}_.-])(?:tmp\.[A-Za-z0-9]{10}|tmp[a-z0-9_]{8})(?![\p{L}\p{N}_-]|\.[\p{L}\p{N}])`,
        'gu',
      ),
    keepsContext: false,
  },
  // Added under v2 as a new name rather than a v3: no capture recorded before it names it, so every existing
  // capture normalizes exactly as before, and an older REA refuses a capture that names it (an unknown filter)
  // instead of reading it otherwise. Nothing that an existing name matches or writes changed.
  measured_durations: {
    regex: () => durationRegex(MEASURED_DURATION),
    keepsContext: true,
  },
}

/** Control sequences inside a replaced span are kept after the token, so colours still switch on and off. */
const SGR_IN_SPAN = new RegExp(SGR, 'g')

/** One built-in filter as a stream rule, under the definitions of one version (v1 by default). */
export class FilterRule implements StreamRule {
  readonly #name: FilterName
  readonly #definition: FilterDefinition
  readonly #regex: RegExp

  // No default version: a caller names the definitions it reads with (new captures: FILTERS_V2).
  constructor(name: FilterName, definitions: Readonly<Record<FilterName, FilterDefinition>>) {
    this.#name = name
    this.#definition = definitions[name]
    this.#regex = this.#definition.regex()
  }

  find(text: string, from: number, limit: number): RuleMatch | undefined {
    const regex = this.#regex
    regex.lastIndex = from
    const match = regex.exec(text)
    if (match === null || match.index >= limit) {
      return undefined
    }
    const start = match.index
    const end = start + match[0].length
    // A key that names a duration stays; only its value is replaced. The match still starts at the key, so
    // the key is never released before the value it belongs to is decided.
    const value = this.#definition.keepsContext ? match.groups?.['value'] : undefined
    const kept = value === undefined ? '' : text.slice(start, end - value.length)
    const escapes =
      text
        .slice(start + kept.length, end)
        .match(SGR_IN_SPAN)
        ?.join('') ?? ''
    return { start, end, replacement: kept + FILTER_TOKENS[this.#name] + escapes, label: this.#name }
  }

  undecidedFrom(text: string, from: number): number {
    return Math.max(from, text.length - FILTER_WINDOW_CHARACTERS)
  }
}
