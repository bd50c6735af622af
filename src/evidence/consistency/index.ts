import type { ReaIssue } from '../../errors.js'
import type { Evidence } from '../schema.js'
import { checkCommitmentDigests, checkCommitmentValues } from './commitments.js'
import { DerivedFacts } from './facts.js'
import { checkFilesystem } from './filesystem.js'
import { checkInteractions } from './interactions.js'
import { checkJournal } from './journal.js'
import { checkMachineValues } from './machine-values.js'
import { checkRunOutcome } from './run-outcome.js'
import { checkChunks, checkFrames, checkRedaction, checkReplies } from './terminal.js'
import { checkUnknowns } from './unknowns.js'

/**
 * Every derived fact of a schema-valid document, recomputed from the fields it follows from. A contradiction
 * means the document was edited (its identity digest recomputed) or written by a faulty producer; either way
 * a comparison could trust the wrong one of two fields, so import rejects it. `docs/comparison.md` lists
 * which field is derived from which.
 */
export function derivedFactIssues(evidence: Evidence): ReaIssue[] {
  const facts = new DerivedFacts()
  checkJournal(evidence, facts)
  if (facts.issues.length > 0 || commitmentDigestIssues(evidence).length > 0) {
    // Records out of place, or commitments that are not what they claim: facts derived from them would only
    // repeat the same damage in other words.
    return facts.issues
  }
  checkCommitmentValues(evidence, facts)
  checkChunks(evidence, facts)
  checkFrames(evidence, facts)
  checkRedaction(evidence, facts)
  checkReplies(evidence, facts)
  checkInteractions(evidence, facts)
  checkRunOutcome(evidence, facts)
  checkFilesystem(evidence, facts)
  checkUnknowns(evidence, facts)
  checkMachineValues(evidence, facts)
  return facts.issues
}

/** Commitment digests: a mismatch means the committed values were edited after capture. */
export function commitmentDigestIssues(evidence: Evidence): ReaIssue[] {
  const facts = new DerivedFacts()
  checkCommitmentDigests(evidence, facts)
  return facts.issues
}
