import type { ReaIssue } from '../../errors.js'

/**
 * Collects contradictions between a field and the fields it follows from. Each issue names the derived field
 * as its path and the field it contradicts in its message, so the reader can look at both.
 */
export class DerivedFacts {
  readonly issues: ReaIssue[] = []

  /**
   * Records a contradiction unless `holds`; `message` is only built when it does not. Unless given, the rule is
   * `accounting_consistency` for the accounting and what summarizes it, `derived_fact` for everything else.
   */
  expect(holds: boolean, path: string, against: string, message: () => string, rule?: DerivedRule): void {
    if (!holds) {
      this.issues.push({
        path,
        rule: rule ?? (ACCOUNTING.test(path) ? 'accounting_consistency' : 'derived_fact'),
        message: `contradicts ${against}: ${message()}`,
      })
    }
  }
}

const ACCOUNTING = /^(truncation_details|truncated|journal|residual_unknowns)\b/

export type DerivedRule = 'derived_fact' | 'accounting_consistency' | 'commitment_digest'

/** Structural equality of JSON values, key order ignored. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => sameJson(item, b[index]))
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a)
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameJson(a[key], b[key]))
  }
  return false
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
