import type { Evidence } from '../schema.js'
import type { DerivedFacts } from './facts.js'

const DEADLINES: ReadonlySet<string> = new Set(['timeout', 'idle_timeout'])

/** How the run ended, settled and was cleaned up: the summary fields agree with the records they summarize. */
export function checkRunOutcome(evidence: Evidence, facts: DerivedFacts): void {
  const { exit, disposition, settlement, cleanup } = evidence
  const contract = evidence.commitments.comparison_contract.value
  facts.expect(
    disposition === exit.reason ||
      (disposition === 'cancelled' && DEADLINES.has(exit.reason) && exit.finalization !== undefined),
    'disposition',
    'exit.reason and exit.finalization',
    () =>
      `a capture that ended as ${disposition} records exit.reason ${exit.reason}; only cancellation during finalization keeps the deadline`,
  )
  facts.expect(
    (evidence.failure !== undefined) === (disposition === 'failed'),
    'failure',
    'disposition',
    () => 'a failure is described exactly when the capture failed',
  )
  facts.expect(
    exit.code === null || (exit.reason === 'exited' && exit.signal === 0),
    'exit.code',
    'exit.reason and exit.signal',
    () => `an exit code is recorded only for an exit without a signal that ended the run itself`,
  )
  const finalization = exit.finalization
  if (finalization !== undefined) {
    facts.expect(
      finalization.requested_ms === contract.finalization_ms && DEADLINES.has(exit.reason),
      'exit.finalization.requested_ms',
      'the contract’s finalization_ms and exit.reason',
      () =>
        `finalization of ${finalization.requested_ms} ms after ${exit.reason} with finalization_ms ${contract.finalization_ms}`,
    )
  }
  facts.expect(
    (settlement.reason !== undefined) === (settlement.status === 'unverifiable'),
    'settlement.reason',
    'settlement.status',
    () => 'a reason is given exactly when settlement is unverifiable',
  )
  const related = cleanup.unverified_processes.some((entry) => entry.related)
  const allGone = cleanup.killed.every((entry) => entry.confirmed_gone)
  const expected = {
    not_needed: cleanup.killed.length === 0 && !related,
    completed: cleanup.killed.length > 0 && allGone && !related,
    incomplete: !allGone || related || cleanup.killed.length > 0,
    unsupported: cleanup.killed.length === 0,
  }[cleanup.owned_processes]
  facts.expect(
    expected,
    'cleanup.owned_processes',
    'cleanup.killed and cleanup.unverified_processes',
    () =>
      `${cleanup.owned_processes} with ${cleanup.killed.length} killed (${allGone ? 'all' : 'not all'} confirmed gone) and ${related ? 'a' : 'no'} related unverified process`,
  )
  cleanup.killed.forEach((entry, index) => {
    const confirmed =
      entry.delivery === 'gone' || entry.delivery === 'identity-changed'
        ? true
        : entry.delivery === 'unverified'
          ? false
          : entry.confirmed_gone
    facts.expect(
      entry.confirmed_gone === confirmed,
      `cleanup.killed[${index}].confirmed_gone`,
      `cleanup.killed[${index}].delivery`,
      () => `a kill with delivery ${entry.delivery} ${confirmed ? 'is' : 'is not'} confirmed gone`,
    )
  })
  const accounting = evidence.truncation_details.process
  const samples = evidence.process.samples.length
  facts.expect(
    accounting.sample_limit === contract.limits.process_samples,
    'truncation_details.process.sample_limit',
    'the contract’s limits.process_samples',
    () => `${accounting.sample_limit} against ${contract.limits.process_samples}`,
  )
  facts.expect(
    accounting.samples_retained === samples && samples <= accounting.sample_limit,
    'truncation_details.process.samples_retained',
    'process.samples',
    () =>
      `is ${accounting.samples_retained}; process.samples holds ${samples} of at most ${accounting.sample_limit}`,
  )
  facts.expect(
    !accounting.limit_reached || samples === accounting.sample_limit,
    'truncation_details.process.limit_reached',
    'process.samples',
    () => `the limit of ${accounting.sample_limit} cannot be reached with ${samples} samples`,
  )
  facts.expect(
    accounting.partial === (accounting.limit_reached || cleanup.owned_processes === 'unsupported'),
    'truncation_details.process.partial',
    'truncation_details.process.limit_reached and cleanup.owned_processes',
    () => 'sampling is partial exactly when its limit was reached or processes could not be inspected',
  )
}
