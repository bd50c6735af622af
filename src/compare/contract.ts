import { ReaError, type ReaIssue } from '../errors.js'
import type { Evidence } from '../evidence/schema.js'
import { describeValue } from '../internal/zod-issues.js'
import { newDefaultsHint } from './hints/new-defaults.js'
import { rulesChangedHint } from './hints/rules-changed.js'

/**
 * The fields whose values name semantics: a mismatch means the two sides turned output into comparison text, or
 * drew it on their screens, differently.
 */
const VERSION_FIELDS = new Set([
  'normalization.port_normalization_version',
  'normalization.pattern_normalization_version',
  'normalization.sensitive_redaction_version',
  'normalization.placeholder_normalization_version',
  'normalization.redaction_normalization_version',
  'normalization.filter_normalization_version',
  'line_format',
  'terminal.width_model',
  'terminal.reply_table',
  'event_dispatch',
])

/**
 * Two captures compare only under the same comparison contract (everything but the executable and its
 * arguments). Every differing field is named, down to the leaf, so the user can fix the scenario in one go; a
 * differing normalization or line-format version gets its own rule, because the fix is to recapture both sides.
 */
export function assertSameContract(authority: Evidence, reconstruction: Evidence): void {
  const a = authority.commitments.comparison_contract
  const b = reconstruction.commitments.comparison_contract
  if (a.sha256 === b.sha256) {
    return
  }
  const issues: ReaIssue[] = []
  collectDifferences(a.value, b.value, '', issues)
  if (issues.length === 0) {
    // The digests differ but the values do not: one side's commitment does not match its own value.
    issues.push({
      path: 'commitments.comparison_contract.sha256',
      rule: 'contract_mismatch',
      message: 'the contract digests differ although the committed values are equal',
    })
  }
  const crossVersion = issues.some((issue) => issue.rule === 'normalization_version')
  const olderDefaults = newDefaultsHint(issues, a.value, b.value)
  const rulesChanged = rulesChangedHint(issues)
  throw new ReaError(
    'CONTRACT_MISMATCH',
    `The captures were made under different comparison contracts (${issues.length} ${issues.length === 1 ? 'field differs' : 'fields differ'}); REA compares only captures of the same scenario:`,
    {
      // Fields REA's defaults added differ by the dozen (the test environment): a few name the change.
      issues: olderDefaults === undefined ? issues : abridged(issues),
      hint:
        olderDefaults ??
        rulesChanged ??
        (crossVersion
          ? 'The captures used different normalization or terminal semantics: recapture both sides with the same REA version.'
          : 'Capture both sides from the same scenario (same working directory relative to the capture root, observation paths, terminal, events, deadlines, limits and normalization); only the executable and its arguments may differ.'),
    },
  )
}

const ABRIDGED_ISSUES = 4

function abridged(issues: ReaIssue[]): ReaIssue[] {
  if (issues.length <= ABRIDGED_ISSUES + 1) {
    return issues
  }
  return [
    ...issues.slice(0, ABRIDGED_ISSUES),
    {
      path: 'comparison_contract',
      rule: 'contract_mismatch',
      message: `and ${issues.length - ABRIDGED_ISSUES} more fields of the same defaults`,
    },
  ]
}

function collectDifferences(a: unknown, b: unknown, path: string, issues: ReaIssue[]): void {
  if (isRecord(a) && isRecord(b)) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      collectDifferences(a[key], b[key], path === '' ? key : `${path}.${key}`, issues)
    }
    return
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((item, index) => collectDifferences(item, b[index], `${path}[${index}]`, issues))
    return
  }
  if (JSON.stringify(a) === JSON.stringify(b)) {
    return
  }
  const versioned = VERSION_FIELDS.has(path)
  issues.push({
    path: `comparison_contract.${path}`,
    rule: versioned ? 'normalization_version' : 'contract_mismatch',
    message: `authority ${describeContractValue(a)}, reconstruction ${describeContractValue(b)}`,
  })
}

function describeContractValue(value: unknown): string {
  if (value === undefined) {
    return 'has none'
  }
  if (Array.isArray(value)) {
    return `has ${value.length} ${value.length === 1 ? 'item' : 'items'}`
  }
  return `has ${describeValue(value)}`
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
