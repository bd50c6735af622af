import {
  END,
  FILTERS_V1,
  MONTH,
  START,
  TIMESTAMP_FORMS_V1,
  WEEKDAY,
  type FilterDefinition,
  type FilterName,
} from './filters.js'

// Frozen: captures commit FILTER_NORMALIZATION_VERSION (filters.ts), so a change here needs a new version.

const FULL_MONTH = '(?:January|February|March|April|May|June|July|August|September|October|November|December)'
const FULL_WEEKDAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)'
const DAY = String.raw`(?:0?[1-9]|[12]\d|3[01])`
const MONTH_NUMBER = String.raw`(?:0?[1-9]|1[0-2])`

/** Dates without a time, as programs and locales print today's date; every v1 form stays. */
const DATE_FORMS_V2: readonly string[] = [
  // Intl's full and long dates: Monday, December 7, 2026; December 7, 2026; Mon, Dec 7, 2026; 7 December 2026
  String.raw`(?:(?:${FULL_WEEKDAY}|${WEEKDAY}), )?(?:${FULL_MONTH}|${MONTH}) ${DAY}, \d{4}`,
  String.raw`(?:(?:${FULL_WEEKDAY}|${WEEKDAY}), )?${DAY} (?:${FULL_MONTH}|${MONTH}) \d{4}`,
  // Date#toDateString: Mon Dec 07 2026
  String.raw`${WEEKDAY} ${MONTH} \d{2} \d{4}`,
  // ls -l of a file older than six months: Dec  4  2025
  String.raw`${MONTH} [ \d]\d {1,2}\d{4}(?![:\d])`,
  // en-US and en-GB numeric dates, with a four-digit year: 12/7/2026, 07/12/2026
  String.raw`(?<![\d/])(?:${MONTH_NUMBER}/${DAY}|${DAY}/${MONTH_NUMBER})/\d{4}(?![/\d])`,
  // strftime %x and %D in the C locale: 12/07/26
  String.raw`(?<![\d/])(?:0[1-9]|1[0-2])/(?:0[1-9]|[12]\d|3[01])/\d{2}(?![/\d])`,
  // German and many other locales: 7.12.2026, 07.12.2026
  String.raw`(?<![\d.])${DAY}\.${MONTH_NUMBER}\.\d{4}`,
]

// One to six letters or digits that hold a letter and either a digit or both cases: what Node's mkdtemp appends.
const MKDTEMP_SUFFIX = String.raw`(?=[A-Za-z0-9]{0,5}[A-Za-z])(?:(?=[A-Za-z0-9]{0,5}\d)|(?=[A-Za-z0-9]{0,5}[a-z])(?=[A-Za-z0-9]{0,5}[A-Z]))[A-Za-z0-9]{6}`

const TEMP_NAMES_V2: FilterDefinition = {
  // The whole name is replaced, but for Node's mkdtemp the prefix is the program's choice and stays.
  regex: () =>
    new RegExp(
      String.raw`(?<![\p{L}\p{N}_.-])(?:` +
        [
          // mktemp: tmp.XXXXXXXXXX (ten letters or digits), with a suffix too
          String.raw`tmp\.[A-Za-z0-9]{10}(?![\p{L}\p{N}_-])`,
          // Python's tempfile: tmp + eight of [a-z0-9_], before a suffix such as .json or not
          String.raw`tmp[a-z0-9_]{8}(?![\p{L}\p{N}_-])`,
          // Go's os.MkdirTemp("", "go-build"): go-build + digits
          String.raw`go-build\d{1,10}(?![\p{L}\p{N}_-])`,
          // Node's fs.mkdtemp: a prefix ending in - or _, then six random letters and digits; a folder, so a name
          // with an extension after it (invoice-2026Q4.pdf) is not one
          String.raw`[\p{L}\p{N}_.-]{0,64}[\p{L}\p{N}][-_](?<value>${MKDTEMP_SUFFIX})(?![\p{L}\p{N}_-]|\.[\p{L}\p{N}])`,
        ].join('|') +
        ')',
      'gu',
    ),
  keepsContext: true,
}

/** What each filter matches under `builtin-filters-v2`. */
export const FILTERS_V2: Readonly<Record<FilterName, FilterDefinition>> = {
  ...FILTERS_V1,
  timestamps: {
    // The v1 forms first: where one of them holds a date below and a time too, it takes both.
    regex: () => new RegExp(`${START}(?:${[...TIMESTAMP_FORMS_V1, ...DATE_FORMS_V2].join('|')})${END}`, 'gu'),
    keepsContext: false,
  },
  temp_names: TEMP_NAMES_V2,
}
