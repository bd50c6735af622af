import { readFileSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { ReaError, type ReaErrorCode, type ReaIssue } from '../errors.js'
import { describeValue, zodIssuesToReaIssues } from '../internal/zod-issues.js'
import { canonicalDigest, canonicalJsonDocument } from './canonical-json.js'
import { EVIDENCE_FORMAT, EVIDENCE_FORMAT_VERSION } from './format.js'
import { computeIdentityDigest } from './identity-digest.js'
import { readJournal } from './journal.js'
import { evidenceSchema, type Evidence } from './schema.js'
import { markValidated } from './validated.js'

type IssueCategory = 'schema' | 'digest' | 'version'
interface CategorizedIssue extends ReaIssue {
  readonly category: IssueCategory
}

const CODE_BY_CATEGORY: Record<IssueCategory, ReaErrorCode> = {
  schema: 'INVALID_EVIDENCE',
  digest: 'EVIDENCE_DIGEST_MISMATCH',
  version: 'UNSUPPORTED_EVIDENCE_VERSION',
}

/**
 * Validates an Evidence document and reports every problem found, in this order: the schema (a missing
 * `truncation_details` is named as such), the journal's sequence numbers, then the identity digest (a mismatch
 * means the file was edited or corrupted), then the format version.
 *
 * @example
 * const evidence = parseEvidence(JSON.parse(await readFile('capture.json', 'utf8')), 'capture.json')
 */
export function parseEvidence(document: unknown, source = 'Evidence'): Evidence {
  const issues: CategorizedIssue[] = []
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new ReaError(
      'INVALID_EVIDENCE',
      `${source} is not an Evidence document: expected a JSON object, got ${describeValue(document)}.`,
    )
  }
  const record = document as Record<string, unknown>
  if (record['format'] !== EVIDENCE_FORMAT) {
    throw new ReaError(
      'INVALID_EVIDENCE',
      `${source} is not REA process-capture Evidence: its "format" must be "${EVIDENCE_FORMAT}", got ${describeValue(record['format'])}.`,
    )
  }
  const parsed = evidenceSchema.safeParse(document, { reportInput: true })
  if (!parsed.success) {
    for (const issue of zodIssuesToReaIssues(parsed.error, evidenceSchema, document)) {
      issues.push({ ...explainLegacyIssue(issue), category: 'schema' })
    }
  } else {
    issues.push(
      ...[...journalIssues(parsed.data), ...accountingIssues(parsed.data)].map((issue) => ({
        ...issue,
        category: 'schema' as const,
      })),
    )
  }
  if (parsed.success) {
    issues.push(...commitmentIssues(parsed.data).map((issue) => ({ ...issue, category: 'digest' as const })))
  }
  const carried = record['identity_digest']
  if (typeof carried === 'string') {
    const actual = computeIdentityDigest(record)
    if (actual !== carried) {
      issues.push({
        category: 'digest',
        path: 'identity_digest',
        rule: 'identity_digest',
        message: `does not match the document (computed ${actual}): the file was edited or corrupted after capture`,
      })
    }
  }
  const version = record['format_version']
  if (version !== EVIDENCE_FORMAT_VERSION) {
    issues.push({
      category: 'version',
      path: 'format_version',
      rule: 'format_version',
      message: `this REA reads Evidence format version ${EVIDENCE_FORMAT_VERSION}, got ${describeValue(version)}; recapture both sides with the same REA version to compare them`,
    })
  }
  const first = issues[0]
  if (first !== undefined || !parsed.success) {
    const category = first?.category ?? 'schema'
    const count = issues.length
    throw new ReaError(
      CODE_BY_CATEGORY[category],
      `${source} was rejected on import (${count} ${count === 1 ? 'problem' : 'problems'}):`,
      {
        issues: issues.map(({ category: _category, ...issue }) => issue),
      },
    )
  }
  return markValidated(parsed.data)
}

function explainLegacyIssue(issue: ReaIssue): ReaIssue {
  if (issue.path === 'truncation_details' && issue.rule === 'required') {
    return {
      ...issue,
      message:
        'is missing: every capture must account for what its limits dropped. Keep this file as a historical record and recapture for current comparisons',
    }
  }
  return issue
}

/** Every sequence number from 0 to next_sequence − 1 is used exactly once: a dropped entry is detected. */
function journalIssues(evidence: Evidence): ReaIssue[] {
  const sequences = readJournal(evidence).map((entry) => entry.sequence)
  const seen = new Set<number>()
  const duplicates = new Set<number>()
  for (const sequence of sequences) {
    if (seen.has(sequence)) {
      duplicates.add(sequence)
    }
    seen.add(sequence)
  }
  const issues: ReaIssue[] = []
  const expected = evidence.journal.next_sequence
  const missing: number[] = []
  for (let sequence = 0; sequence < expected && missing.length < 5; sequence++) {
    if (!seen.has(sequence)) {
      missing.push(sequence)
    }
  }
  if (duplicates.size > 0) {
    issues.push({
      path: 'journal',
      rule: 'journal_sequence',
      message: `sequence numbers used twice: ${[...duplicates].slice(0, 5).join(', ')}`,
    })
  }
  if (missing.length > 0) {
    issues.push({
      path: 'journal',
      rule: 'journal_sequence',
      message: `sequence numbers missing from the journal: ${missing.join(', ')}`,
    })
  }
  // A loop, not Math.max(...seen): spreading 150,000 sequence numbers overflows the call stack.
  let highest = -1
  for (const sequence of seen) {
    highest = Math.max(highest, sequence)
  }
  if (highest >= expected) {
    issues.push({
      path: 'journal.next_sequence',
      rule: 'journal_sequence',
      message: `must exceed every sequence number in the document: got ${expected}, highest is ${highest}`,
    })
  }
  return issues
}

/**
 * The summary flags must agree with the accounting they summarize. A flag that says "complete" over counts that
 * say otherwise (or the reverse) would let a comparison trust the wrong one, so such a document is rejected.
 */
function accountingIssues(evidence: Evidence): ReaIssue[] {
  const details = evidence.truncation_details
  const raw = details.raw_terminal
  const rendered = details.rendered_terminal
  const issues: ReaIssue[] = []
  const check = (ok: boolean, path: string, message: string): void => {
    if (!ok) {
      issues.push({ path, rule: 'accounting_consistency', message })
    }
  }
  check(
    raw.truncated === (raw.omitted_chunks > 0 || raw.drain === 'incomplete'),
    'truncation_details.raw_terminal.truncated',
    `is ${raw.truncated} but ${raw.omitted_chunks} chunks were omitted and the drain was ${raw.drain}`,
  )
  check(
    raw.retained_chunks === evidence.terminal.chunks.length,
    'truncation_details.raw_terminal.retained_chunks',
    `is ${raw.retained_chunks} but terminal.chunks holds ${evidence.terminal.chunks.length}`,
  )
  const omittedRuns = evidence.terminal.omitted_chunks.reduce((sum, run) => sum + run.count, 0)
  check(
    raw.omitted_chunks === omittedRuns,
    'truncation_details.raw_terminal.omitted_chunks',
    `is ${raw.omitted_chunks} but terminal.omitted_chunks accounts for ${omittedRuns}`,
  )
  check(
    rendered.truncated === (rendered.omitted_for_budget > 0 || rendered.omitted_for_raw_gap > 0),
    'truncation_details.rendered_terminal.truncated',
    `is ${rendered.truncated} but ${rendered.omitted_for_budget + rendered.omitted_for_raw_gap} frames were omitted`,
  )
  for (const name of ['filesystem_before', 'filesystem_after'] as const) {
    const accounting = details[name]
    if (accounting === null) {
      continue
    }
    const cut =
      accounting.roots.some((root) => !root.exhausted) ||
      accounting.hash_omissions.length > 0 ||
      accounting.enumeration_failures.length > 0
    check(
      accounting.truncated === cut,
      `truncation_details.${name}.truncated`,
      `is ${accounting.truncated} but its roots, hash omissions and enumeration failures say ${cut ? 'something was left out' : 'nothing was left out'}`,
    )
  }
  const selected = evidence.filesystem.status === 'observed'
  const filesystemTruncated =
    selected &&
    (details.filesystem_before?.truncated === true ||
      details.filesystem_after === null ||
      details.filesystem_after.truncated)
  const expected = raw.truncated || rendered.truncated || filesystemTruncated || details.process.limit_reached
  check(
    evidence.truncated === expected,
    'truncated',
    `is ${evidence.truncated} but truncation_details says ${expected ? 'a limit or failure dropped observations' : 'nothing was dropped'}`,
  )
  check(
    evidence.journal.complete === (evidence.journal.incomplete_reasons.length === 0),
    'journal.complete',
    `is ${evidence.journal.complete} but journal.incomplete_reasons lists ${evidence.journal.incomplete_reasons.length}`,
  )
  return issues
}

/**
 * Each commitment's digest must be that of its value: comparison trusts the contract digest, so an edited
 * contract value (even in a document whose identity digest was recomputed) is caught here.
 */
function commitmentIssues(evidence: Evidence): ReaIssue[] {
  const issues: ReaIssue[] = []
  for (const name of ['scenario', 'executable', 'comparison_contract', 'normalization'] as const) {
    const commitment = evidence.commitments[name]
    if (canonicalDigest(commitment.value) !== commitment.sha256) {
      issues.push({
        path: `commitments.${name}.sha256`,
        rule: 'commitment_digest',
        message: 'does not match the committed value: the file was edited or corrupted after capture',
      })
    }
  }
  return issues
}

/** Parses Evidence text (JSON) and validates it. */
export function parseEvidenceText(text: string, source = 'Evidence'): Evidence {
  if (text.trim() === '') {
    throw new ReaError('INVALID_EVIDENCE', `${source} is empty: expected an Evidence JSON document.`)
  }
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch (error) {
    throw new ReaError('INVALID_EVIDENCE', `${source} is not valid JSON: ${(error as Error).message}.`, {
      cause: error,
    })
  }
  return parseEvidence(document, source)
}

/** Reads and validates an Evidence file. */
export async function readEvidenceFile(path: string): Promise<Evidence> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw unreadableEvidence(path, error)
  }
  return parseEvidenceText(text, path)
}

/** The same as {@link readEvidenceFile}, for synchronous callers such as matchers. */
export function readEvidenceFileSync(path: string): Evidence {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw unreadableEvidence(path, error)
  }
  return parseEvidenceText(text, path)
}

function unreadableEvidence(path: string, error: unknown): ReaError {
  const code = (error as NodeJS.ErrnoException).code ?? 'unknown error'
  return new ReaError('INVALID_EVIDENCE', `Evidence file ${path} could not be read (${code}).`, {
    cause: error,
  })
}

/** Evidence as written to files: canonical JSON, two-space indent, trailing newline. */
export function serializeEvidence(evidence: Evidence): string {
  return canonicalJsonDocument(evidence)
}

export async function writeEvidenceFile(path: string, evidence: Evidence): Promise<void> {
  await writeFile(path, serializeEvidence(evidence))
}
