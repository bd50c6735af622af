import type { ReaIssue } from '../../errors.js'

const CONTRACT_PREFIX = 'comparison_contract.'

/** The contract's normalization rules a user writes in the scenario, and the versions REA commits with them. */
const RULE_FIELDS = ['placeholders', 'redactions', 'filters', 'patterns', 'ports'] as const

/**
 * The hint for a contract mismatch that lies only in the normalization rules (a filter or placeholder added,
 * a redaction changed, the test plugin's default placeholders grown), with the versions REA commits alongside
 * them: the authority was recorded under other rules, so the program's behaviour was not compared and
 * re-recording it is the fix. Undefined when any other field differs, or only a version does (both sides name
 * the same rules under different REA semantics).
 */
export function rulesChangedHint(issues: readonly ReaIssue[]): string | undefined {
  const changed = new Set<string>()
  for (const issue of issues) {
    const path = issue.path.startsWith(CONTRACT_PREFIX)
      ? issue.path.slice(CONTRACT_PREFIX.length)
      : issue.path
    if (!path.startsWith('normalization.')) {
      return undefined
    }
    const field = RULE_FIELDS.find(
      (name) =>
        path === `normalization.${name}` ||
        path.startsWith(`normalization.${name}.`) ||
        path.startsWith(`normalization.${name}[`),
    )
    if (field !== undefined) {
      changed.add(field)
    } else if (!path.endsWith('_normalization_version') && !path.endsWith('_redaction_version')) {
      return undefined
    }
  }
  if (changed.size === 0) {
    return undefined
  }
  return (
    `The normalization rules changed (${RULE_FIELDS.filter((name) => changed.has(name)).join(', ')}): the authority was recorded under other ` +
    'rules than this scenario names, so the program’s behaviour was not compared. Re-record the authority with ' +
    'the update flag of your test runner (`vitest -u`, `jest -u`) and review the diff, or recapture it from the ' +
    'command line with the new scenario.'
  )
}
