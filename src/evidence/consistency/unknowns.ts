import { canonicalJson } from '../canonical-json.js'
import {
  derivedIncompleteReasons,
  derivedResidualUnknowns,
  filesystemTruncated,
} from '../derived-unknowns.js'
import type { Evidence } from '../schema.js'
import type { DerivedFacts } from './facts.js'

/**
 * What the accounting says was not fully observed must be said where comparison reads it: every residual unknown
 * and journal gap it implies is present (more are allowed, and make more unknown), and the summary flags agree.
 */
export function checkUnknowns(evidence: Evidence, facts: DerivedFacts): void {
  const present = new Map<string, number>()
  for (const unknown of evidence.residual_unknowns) {
    const key = canonicalJson(unknown)
    present.set(key, (present.get(key) ?? 0) + 1)
  }
  for (const unknown of derivedResidualUnknowns(evidence)) {
    const key = canonicalJson(unknown)
    const left = present.get(key) ?? 0
    present.set(key, left - 1)
    facts.expect(
      left > 0,
      'residual_unknowns',
      sourceOf(unknown.reason),
      () => `the ${unknown.dimension} unknown "${unknown.reason}" (${unknown.detail}) is missing`,
    )
  }
  const reasons = evidence.journal.incomplete_reasons
  for (const reason of derivedIncompleteReasons(evidence)) {
    facts.expect(
      reasons.includes(reason),
      'journal.incomplete_reasons',
      'truncation_details and exit',
      () => `the reason "${reason}" is missing`,
    )
  }
  facts.expect(
    evidence.journal.complete === (reasons.length === 0),
    'journal.complete',
    'journal.incomplete_reasons',
    () => `is ${evidence.journal.complete} but journal.incomplete_reasons lists ${reasons.length}`,
  )
  const details = evidence.truncation_details
  const expected =
    details.raw_terminal.truncated ||
    details.rendered_terminal.truncated ||
    filesystemTruncated(evidence) ||
    details.process.limit_reached
  facts.expect(
    evidence.truncated === expected,
    'truncated',
    'truncation_details',
    () =>
      `is ${evidence.truncated} but truncation_details says ${expected ? 'a limit or failure dropped observations' : 'nothing was dropped'}`,
  )
}

function sourceOf(reason: string): string {
  switch (reason) {
    case 'drain_incomplete':
    case 'truncated':
      return 'truncation_details.raw_terminal and rendered_terminal'
    case 'exit_not_observed':
      return 'exit.signal'
    case 'related_process_unverified':
    case 'unrelated_process_unverified':
      return 'cleanup.unverified_processes'
    case 'process_inspection_unavailable':
      return 'cleanup.owned_processes'
    default:
      return 'filesystem and its accounting'
  }
}
