import path from 'node:path'
import { contractWorkingDirectory } from '../commitments.js'
import { canonicalDigest } from '../canonical-json.js'
import type { Evidence } from '../schema.js'
import { sameJson, type DerivedFacts } from './facts.js'

const COMMITMENTS = ['scenario', 'executable', 'comparison_contract', 'normalization'] as const

/**
 * Each commitment's digest must be that of its value: comparison trusts the contract digest, so an edited
 * contract value (even in a document whose identity digest was recomputed) is caught here.
 */
export function checkCommitmentDigests(evidence: Evidence, facts: DerivedFacts): void {
  for (const name of COMMITMENTS) {
    const commitment = evidence.commitments[name]
    facts.expect(
      canonicalDigest(commitment.value) === commitment.sha256,
      `commitments.${name}.sha256`,
      `commitments.${name}.value`,
      () => 'the digest is not that of the committed value: the file was edited or corrupted after capture',
      'commitment_digest',
    )
  }
}

/**
 * The scenario and normalization commitments restate what the contract and the executable commitment hold;
 * only the comparison contract is compared, so every restated field must agree with it.
 */
export function checkCommitmentValues(evidence: Evidence, facts: DerivedFacts): void {
  const { scenario, executable, comparison_contract: contract, normalization } = evidence.commitments
  const restated = (field: string, value: unknown, against: string, source: unknown): void =>
    facts.expect(sameJson(value, source), field, against, () => 'the two say different things')
  restated(
    'commitments.normalization.value',
    normalization.value,
    'commitments.comparison_contract.value.normalization',
    contract.value.normalization,
  )
  for (const field of [
    'environment',
    'home',
    'filesystem_observation_paths',
    'terminal',
    'events',
    'timeout_ms',
    'idle_timeout_ms',
    'settle_ms',
    'finalization_ms',
    'limits',
    'event_dispatch',
  ] as const) {
    restated(
      `commitments.scenario.value.${field}`,
      scenario.value[field],
      `commitments.comparison_contract.value.${field}`,
      contract.value[field],
    )
  }
  for (const field of ['ports', 'patterns'] as const) {
    restated(
      `commitments.scenario.value.normalization.${field}`,
      scenario.value.normalization[field],
      `commitments.comparison_contract.value.normalization.${field}`,
      contract.value.normalization[field],
    )
  }
  for (const field of ['executable', 'arguments'] as const) {
    restated(
      `commitments.scenario.value.${field}`,
      scenario.value[field],
      `commitments.executable.value.${field}`,
      executable.value[field],
    )
  }
  // The contract holds the working directory relative to the capture root, in the capturing host's flavour. A
  // stored authority holds the root, and paths below a machine's folders, as tokens: a path that starts with one
  // is read as the absolute path it stands for.
  const stored = evidence.machine_values !== undefined
  const absolute = (value: string): string => (stored && /^\[[A-Z]+\]/.test(value) ? `/${value}` : value)
  const root = absolute(evidence.host.capture_root)
  const paths = path.posix.isAbsolute(root) ? path.posix : path.win32
  const resolved = contractWorkingDirectory(
    root,
    paths.resolve(root, absolute(scenario.value.working_directory)),
    paths,
  )
  const expected = stored && /^\/\[[A-Z]+\]/.test(resolved) ? resolved.slice(1) : resolved
  facts.expect(
    expected === contract.value.working_directory,
    'commitments.scenario.value.working_directory',
    'commitments.comparison_contract.value.working_directory and host.capture_root',
    () =>
      `${JSON.stringify(scenario.value.working_directory)} from ${JSON.stringify(root)} is ${JSON.stringify(expected)}, the contract says ${JSON.stringify(contract.value.working_directory)}`,
  )
}
