import type { ReaIssue } from '../../errors.js'
import { TEST_ENVIRONMENT } from '../../scenario/test-environment.js'

/**
 * Contract fields that REA's defaults added in a release: a capture recorded before then has none of them. When
 * two contracts differ only there, the program's behaviour was never compared: the authority is simply older
 * than the defaults, and re-recording it is the fix.
 */
const PLACEHOLDERS =
  'placeholders for the checkout’s and the machine’s paths and names (root, cwd, home, tmpdir, user, hostname)'
const ENVIRONMENT =
  'the test environment (colour, CI, terminal, locale and time zone variables removed or pinned)'
const ADDED_DEFAULTS: readonly { readonly matches: (path: string) => boolean; readonly what: string }[] = [
  { matches: under('normalization.placeholders'), what: PLACEHOLDERS },
  { matches: under('normalization.placeholder_normalization_version'), what: PLACEHOLDERS },
  {
    matches: (path) =>
      path.startsWith('environment.') && Object.hasOwn(TEST_ENVIRONMENT, path.slice('environment.'.length)),
    what: ENVIRONMENT,
  },
  {
    matches: under('terminal.width_model'),
    what: 'the character widths of a current terminal (emoji two cells wide)',
  },
  {
    matches: under('terminal.reply_table'),
    what: 'the query replies of a current terminal (colours, XTVERSION, XTGETTCAP)',
  },
  {
    matches: under('event_dispatch'),
    what: 'input typed as a person types it (after the terminal’s replies were read, keys one at a time) and waits met on a settled screen',
  },
]

function under(prefix: string): (path: string) => boolean {
  return (path) => path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`)
}

const CONTRACT_PREFIX = 'comparison_contract.'

/**
 * The hint for a contract mismatch that lies only in fields REA's new defaults add, where one side has none of
 * them; undefined when any other field differs.
 */
export function newDefaultsHint(
  issues: readonly ReaIssue[],
  authority: unknown,
  reconstruction: unknown,
): string | undefined {
  const added = new Set<string>()
  for (const issue of issues) {
    const path = issue.path.startsWith(CONTRACT_PREFIX)
      ? issue.path.slice(CONTRACT_PREFIX.length)
      : issue.path
    const entry = ADDED_DEFAULTS.find(({ matches }) => matches(path))
    if (
      entry === undefined ||
      (valueAt(authority, path) !== undefined && valueAt(reconstruction, path) !== undefined)
    ) {
      return undefined
    }
    added.add(entry.what)
  }
  if (added.size === 0) {
    return undefined
  }
  return (
    `One side was recorded before REA's current defaults (${[...added].join('; ')}); ` +
    'the program’s behaviour was not compared. Re-record the authority with the update flag of your test ' +
    'runner (`vitest -u`, `jest -u`), or recapture it with the same REA version from the command line.'
  )
}

function valueAt(value: unknown, path: string): unknown {
  if (path.startsWith('environment.')) {
    // Variable names may hold dots.
    const environment = (value as { environment?: Record<string, unknown> } | undefined)?.environment
    const name = path.slice('environment.'.length)
    return environment !== undefined && Object.hasOwn(environment, name) ? environment[name] : undefined
  }
  let current = value
  for (const key of path
    .replaceAll(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((part) => part !== '')) {
    if (typeof current !== 'object' || current === null) {
      return undefined
    }
    current = (current as Record<string, unknown>)[key]
  }
  return current
}
