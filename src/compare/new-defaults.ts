import type { ReaIssue } from '../errors.js'

/**
 * Contract fields that REA's defaults added in a release: a capture recorded before then has none of them. When
 * two contracts differ only there, the program's behaviour was never compared: the authority is simply older
 * than the defaults, and re-recording it is the fix.
 */
const PLACEHOLDERS = 'placeholders for the checkout’s and the machine’s paths (root, cwd, home, tmpdir)'
const ADDED_DEFAULTS: readonly { readonly prefix: string; readonly what: string }[] = [
  { prefix: 'normalization.placeholders', what: PLACEHOLDERS },
  { prefix: 'normalization.placeholder_normalization_version', what: PLACEHOLDERS },
]

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
    const entry = ADDED_DEFAULTS.find(
      ({ prefix }) => path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`),
    )
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
    `One side was recorded before REA's current defaults for test captures (${[...added].join('; ')}); ` +
    'the program’s behaviour was not compared. Re-record the authority with the update flag of your test ' +
    'runner (`vitest -u`, `jest -u`), or recapture it with the same REA version from the command line.'
  )
}

function valueAt(value: unknown, path: string): unknown {
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
