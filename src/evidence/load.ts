import { ReaError, type ReaErrorCode, type ReaIssue } from '../errors.js'
import {
  EVIDENCE_FILE_MAX_BYTES,
  readInputFile,
  readInputFileSync,
  type InputFileKind,
} from '../internal/read-input-file.js'
import { showName } from '../internal/escape-controls.js'
import { writeFileAtomic } from '../internal/write-file-atomic.js'
import { describeValue, zodIssuesToReaIssues } from '../internal/zod-issues.js'
import { evidenceOfAuthority, isAuthorityDocument } from './authority-document.js'
import { commitmentDigestIssues, derivedFactIssues } from './consistency/index.js'
import { EVIDENCE_FORMAT, EVIDENCE_FORMAT_VERSION } from './format.js'
import { computeIdentityDigest } from './identity-digest.js'
import { evidenceSchema, type Evidence } from './schema.js'
import { markValidated } from './validated.js'
import { serializeEvidence } from './serialize.js'

type IssueCategory = 'schema' | 'derived' | 'digest' | 'version'
interface CategorizedIssue extends ReaIssue {
  readonly category: IssueCategory
}

const CODE_BY_CATEGORY: Record<IssueCategory, ReaErrorCode> = {
  schema: 'INVALID_EVIDENCE',
  derived: 'INVALID_EVIDENCE',
  digest: 'EVIDENCE_DIGEST_MISMATCH',
  version: 'UNSUPPORTED_EVIDENCE_VERSION',
}
/**
 * Which problem names the error: a document that is not Evidence, then one edited without a new digest, then
 * one whose derived facts contradict each other (edited with a recomputed digest), then another version.
 */
const PRIORITY: readonly IssueCategory[] = ['schema', 'digest', 'derived', 'version']

/**
 * Validates an Evidence document and reports every problem found, in this order: the schema (a missing
 * `truncation_details` is named as such), then every derived fact recomputed from the fields it follows from
 * (the journal's sequence numbers, the accounting, the effects, …), then the commitment and identity digests
 * (a mismatch means the file was edited or corrupted), then the format version.
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
      ...derivedFactIssues(parsed.data).map((issue) => ({ ...issue, category: 'derived' as const })),
      ...commitmentDigestIssues(parsed.data).map((issue) => ({ ...issue, category: 'digest' as const })),
    )
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
  if (issues.length > 0 || !parsed.success) {
    const category = PRIORITY.find((name) => issues.some((issue) => issue.category === name)) ?? 'schema'
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

/** Parses Evidence text (JSON) and validates it; an authority file's Evidence is checked against its review. */
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
  return isAuthorityDocument(document)
    ? evidenceOfAuthority(document, source, parseEvidence)
    : parseEvidence(document, source)
}

const EVIDENCE_FILE: InputFileKind = {
  label: 'Evidence file',
  code: 'INVALID_EVIDENCE',
  maxBytes: EVIDENCE_FILE_MAX_BYTES,
}

/** Reads and validates an Evidence file; only a regular file within the size limit is read. */
export async function readEvidenceFile(path: string): Promise<Evidence> {
  return parseEvidenceText(await readInputFile(path, EVIDENCE_FILE), showName(path))
}

/** The same as {@link readEvidenceFile}, for synchronous callers such as matchers. */
export function readEvidenceFileSync(path: string): Evidence {
  return parseEvidenceText(readInputFileSync(path, EVIDENCE_FILE), showName(path))
}

/** Writes Evidence as canonical JSON, whole or not at all (see `writeFileAtomic`). */
export async function writeEvidenceFile(path: string, evidence: Evidence): Promise<void> {
  await writeFileAtomic(path, serializeEvidence(evidence))
}
