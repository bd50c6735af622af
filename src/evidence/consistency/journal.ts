import { readJournal } from '../journal.js'
import type { Evidence } from '../schema.js'
import type { DerivedFacts } from './facts.js'

/**
 * Every sequence number from 0 to next_sequence − 1 is used exactly once, so a dropped entry is detected, and
 * each array holds its records in journal order. Times are not checked: nothing is ordered by them.
 */
export function checkJournal(evidence: Evidence, facts: DerivedFacts): void {
  const entries = readJournal(evidence)
  const seen = new Set<number>()
  const duplicates = new Set<number>()
  // A loop, not Math.max(...seen): spreading 150,000 sequence numbers overflows the call stack.
  let highest = -1
  for (const { sequence } of entries) {
    if (seen.has(sequence)) {
      duplicates.add(sequence)
    }
    seen.add(sequence)
    highest = Math.max(highest, sequence)
  }
  const expected = evidence.journal.next_sequence
  const missing: number[] = []
  for (let sequence = 0; sequence < expected && missing.length < 5; sequence++) {
    if (!seen.has(sequence)) {
      missing.push(sequence)
    }
  }
  const sequenceIssue = (message: string, path = 'journal') =>
    facts.issues.push({ path, rule: 'journal_sequence', message })
  if (duplicates.size > 0) {
    sequenceIssue(`sequence numbers used twice: ${[...duplicates].slice(0, 5).join(', ')}`)
  }
  if (missing.length > 0) {
    sequenceIssue(`sequence numbers missing from the journal: ${missing.join(', ')}`)
  }
  if (highest >= expected) {
    sequenceIssue(
      `must exceed every sequence number in the document: got ${expected}, highest is ${highest}`,
      'journal.next_sequence',
    )
  }
  if (facts.issues.length > 0) {
    return
  }
  const arrays: [string, readonly { readonly sequence: number }[]][] = [
    ['terminal.chunks', evidence.terminal.chunks],
    ['terminal.omitted_chunks', evidence.terminal.omitted_chunks],
    ['terminal.frames', evidence.terminal.frames],
    ['terminal.replies', evidence.terminal.replies ?? []],
    ['interactions', evidence.interactions],
    ['process.samples', evidence.process.samples],
    ['exit.finalization.signals', evidence.exit.finalization?.signals ?? []],
    ['filesystem.checkpoints', evidence.filesystem.checkpoints],
  ]
  for (const [name, records] of arrays) {
    const index = records.findIndex(
      (record, at) => at > 0 && record.sequence <= (records[at - 1]?.sequence ?? -1),
    )
    if (index !== -1) {
      sequenceIssue(
        `records must be in journal order: ${name}[${index}] comes before ${name}[${index - 1}]`,
        `${name}[${index}].sequence`,
      )
    }
  }
}
