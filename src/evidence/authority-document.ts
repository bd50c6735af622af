import { ReaError } from '../errors.js'
import { describeValue } from '../internal/zod-issues.js'
import { authorityReview, type AuthorityLayout } from './authority-review.js'
import type { Evidence } from './schema.js'

/** Authority files written since wave 3: the Evidence with a readable review section before it. */
export const AUTHORITY_FORMAT = 'rea.process-capture.authority'
/** The layout REA writes: 2 shows how styled screen rows look; 1 (screens as text only) is still read. */
export const AUTHORITY_FORMAT_VERSION = 2
const READABLE_VERSIONS: readonly AuthorityLayout[] = [1, 2]

/**
 * Evidence members, grouped into lines. What changes on every run even when the program did not (times, sequence
 * numbers, process ids and samples, the identity digest) is on the last line, all of it, so re-recording costs two
 * lines of the diff there whatever changed; the lines above change only when what they hold does.
 */
const STABLE_LINES: readonly (readonly string[])[] = [
  ['format', 'format_version', 'rea_version', 'host'],
  ['commitments'],
  ['disposition', 'failure', 'truncated', 'residual_unknowns', 'normalized_result'],
]
const RUN_LINE: readonly string[] = [
  'captured_at',
  'duration_ms',
  'terminal',
  'interactions',
  'exit',
  'settlement',
  'cleanup',
  'process',
  'filesystem',
  'truncation_details',
  'journal',
  'identity_digest',
]

/**
 * An authority file: the review section, then the Evidence, a few members per line. Still JSON; the identity
 * digest stays the one over the Evidence's canonical JSON, whatever the layout.
 */
export function serializeAuthority(evidence: Evidence): string {
  const record = evidence as unknown as Record<string, unknown>
  const listed = new Set([...STABLE_LINES.flat(), ...RUN_LINE])
  const groups = [
    ...STABLE_LINES,
    // Members a later Evidence version adds, until they are placed: after the stable lines, before the run's.
    Object.keys(record)
      .filter((key) => !listed.has(key))
      .sort(),
    RUN_LINE,
  ]
  const evidenceLines = groups
    .map((keys) => keys.filter((key) => record[key] !== undefined))
    .filter((keys) => keys.length > 0)
    .map(
      (keys) =>
        `    ${keys.map((key) => `${JSON.stringify(key)}: ${JSON.stringify(record[key])}`).join(', ')}`,
    )
  return [
    '{',
    `  "format": ${JSON.stringify(AUTHORITY_FORMAT)},`,
    `  "format_version": ${AUTHORITY_FORMAT_VERSION},`,
    `  "review": ${reviewSectionText(authorityReview(evidence, AUTHORITY_FORMAT_VERSION))},`,
    '  "evidence": {',
    evidenceLines.join(',\n'),
    '  }',
    '}',
    '',
  ].join('\n')
}

/**
 * A review section as an authority file spells it: one entry per line, indented to sit in the document. What a
 * reviewer's diff shows, and what `rea review` shows of two files.
 */
export function reviewSectionText(review: unknown): string {
  return JSON.stringify(review, null, 2).replaceAll('\n', '\n  ')
}

/** Whether a parsed JSON document is an authority file rather than bare Evidence. */
export function isAuthorityDocument(document: unknown): document is Record<string, unknown> {
  return (
    typeof document === 'object' &&
    document !== null &&
    (document as Record<string, unknown>)['format'] === AUTHORITY_FORMAT
  )
}

/**
 * The Evidence of an authority file, with its review checked against it under the file's own layout: a review
 * edited by hand, or left behind by any writer but REA, no longer says what the Evidence holds. `parse` validates
 * the Evidence itself. A file of a layout this REA does not know (a later REA's) is refused, naming both.
 */
export function evidenceOfAuthority(
  document: Record<string, unknown>,
  source: string,
  parse: (evidence: unknown, source: string) => Evidence,
): Evidence {
  const version = document['format_version']
  if (!READABLE_VERSIONS.includes(version as AuthorityLayout)) {
    throw new ReaError(
      'UNSUPPORTED_EVIDENCE_VERSION',
      `${source} is an authority file of format version ${describeValue(version)}; this REA reads versions ${READABLE_VERSIONS.join(' and ')}. ` +
        'A later REA wrote it: use that version, or re-record the authority with this one (-u).',
    )
  }
  const evidence = parse(document['evidence'], `${source} (its evidence)`)
  const derived = authorityReview(evidence, version as AuthorityLayout)
  if (JSON.stringify(document['review']) !== JSON.stringify(derived)) {
    throw new ReaError(
      'INVALID_EVIDENCE',
      `${source} was rejected on import: its "review" section does not say what its Evidence holds (it was edited by hand, or written by another tool). The review is derived from the Evidence: re-record the authority with -u.`,
    )
  }
  return evidence
}
