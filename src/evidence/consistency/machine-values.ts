import { PLACEHOLDER_TOKENS } from '../../normalize/placeholders.js'
import { PLACEHOLDER_NAMES } from '../../scenario/schema.js'
import { MACHINE_VALUES_VERSION } from '../machine-values.js'
import type { Evidence } from '../schema.js'
import type { DerivedFacts } from './facts.js'

/**
 * A stored authority's `machine_values`: a rewrite this REA knows, of placeholders the contract names and the
 * capture applied, in their documented order; and where the root was one of them, the capture root is its token.
 */
export function checkMachineValues(evidence: Evidence, facts: DerivedFacts): void {
  const stored = evidence.machine_values
  if (stored === undefined) {
    return
  }
  facts.expect(
    stored.version === MACHINE_VALUES_VERSION,
    'machine_values.version',
    'the rewrites this REA knows',
    () => `${JSON.stringify(stored.version)} is not ${MACHINE_VALUES_VERSION}`,
  )
  const named = evidence.commitments.comparison_contract.value.normalization.placeholders ?? []
  const applied = new Set(
    (evidence.terminal.stream_normalization?.placeholders ?? []).flatMap((entry) =>
      entry.status === 'applied' ? [entry.name] : [],
    ),
  )
  const ordered = PLACEHOLDER_NAMES.filter((name) => stored.placeholders.includes(name))
  facts.expect(
    stored.placeholders.every((name) => named.includes(name) && applied.has(name)) &&
      ordered.length === stored.placeholders.length &&
      ordered.every((name, index) => stored.placeholders[index] === name),
    'machine_values.placeholders',
    'the contract’s normalization.placeholders and terminal.stream_normalization.placeholders',
    () =>
      'each must be a placeholder the contract names and the capture applied, once, in the documented order',
  )
  facts.expect(
    !stored.placeholders.includes('root') || evidence.host.capture_root === PLACEHOLDER_TOKENS.root,
    'host.capture_root',
    'machine_values.placeholders',
    () =>
      `the root is stored as its token, but the capture root reads ${JSON.stringify(evidence.host.capture_root)}`,
  )
}
