import { describe, expect, test } from 'vitest'
import { serializeAuthority } from '../../../src/evidence/authority-document.js'
import { authorityReview } from '../../../src/evidence/authority-review.js'
import { screenStyles } from '../../../src/evidence/screen-styles.js'
import { parseEvidenceText } from '../../../src/evidence/load.js'
import { serializeEvidence } from '../../../src/evidence/serialize.js'
import { isReaError } from '../../../src/errors.js'
import { buildEvidence } from '../../helpers/build-evidence.js'

const evidence = buildEvidence([
  { chunk: '\x1b[1mTodo\x1b[0m\r\nName? ' },
  { frame: 'retained' },
  { chunk: 'Ada\r\nHello, Ada!\r\n' },
  { exit: { code: 0, signal: 0 } },
])

describe('authority files', () => {
  test('read back as the Evidence they were written from, with the same identity digest', () => {
    const text = serializeAuthority(evidence)
    const read = parseEvidenceText(text, 'a.capture.json')
    expect(read.identity_digest).toBe(evidence.identity_digest)
    expect(serializeEvidence(read)).toBe(serializeEvidence(evidence))
  })

  test('open with a review section in plain text: output lines without escape codes, the exit in words', () => {
    const review = authorityReview(evidence, 2)
    expect(review.output).toEqual(['Todo', 'Name? Ada', 'Hello, Ada!'])
    expect(review.exit).toBe('exited, code 0')
    const text = serializeAuthority(evidence)
    expect(text.indexOf('"review"')).toBeLessThan(text.indexOf('"evidence"'))
    expect(text).toContain('\n      "Hello, Ada!"\n')
  })

  test('are rejected, naming -u, when the review no longer says what the Evidence holds', () => {
    const edited = serializeAuthority(evidence).replace('"Hello, Ada!"', '"Hello, Bob!"')
    try {
      parseEvidenceText(edited, 'a.capture.json')
      expect.unreachable()
    } catch (error) {
      expect(isReaError(error) && error.code).toBe('INVALID_EVIDENCE')
      expect(String(error)).toMatch(/review.*re-record the authority with -u/s)
    }
  })

  test('written before this layout (plain Evidence) are still read', () => {
    expect(parseEvidenceText(serializeEvidence(evidence)).identity_digest).toBe(evidence.identity_digest)
  })
})

describe('authority layouts', () => {
  const layoutOne = (): Record<string, unknown> => {
    const document = JSON.parse(serializeAuthority(evidence)) as Record<string, unknown>
    const review = document['review'] as { screens: { styles?: unknown }[] }
    review.screens.forEach((screen) => delete screen.styles)
    return { ...document, format_version: 1 }
  }

  test('layout 1 (screens as text only) is still read, and its review still checked', () => {
    const one = layoutOne()
    expect(parseEvidenceText(JSON.stringify(one), 'old.capture.json').identity_digest).toBe(
      evidence.identity_digest,
    )
    const edited = structuredClone(one) as { review: { exit: string } }
    edited.review.exit = 'exited, code 1'
    expect(() => parseEvidenceText(JSON.stringify(edited), 'old.capture.json')).toThrow(/re-record/)
  })

  test('a later layout is refused, naming both versions and what to do', () => {
    const later = { ...layoutOne(), format_version: 3 }
    expect(() => parseEvidenceText(JSON.stringify(later), 'new.capture.json')).toThrow(
      /format version 3; this REA reads versions 1 and 2\. A later REA wrote it/,
    )
  })

  test('what changes on every run shares one line, the identity digest at its end', () => {
    const lines = serializeAuthority(evidence).split('\n')
    const holding = (key: string) =>
      lines.filter((line) => line.includes(`"${key}": `) && line.startsWith('    "'))
    const run = [
      ...new Set(['captured_at', 'terminal', 'process', 'journal', 'identity_digest'].flatMap(holding)),
    ]
    expect(run).toHaveLength(1)
    expect(run[0]).toMatch(/^ {4}"captured_at": .*"identity_digest": "[0-9a-f]{64}"$/)
  })
})

describe('screenStyles', () => {
  const frame = (state: string) => ({
    sequence: 0,
    at_ms: 0,
    trigger: 'final' as const,
    checkpoint: true,
    event_index: null,
    status: 'retained' as const,
    columns: 20,
    rows: 3,
    cursor: { row: 0, column: 0 },
    lines: [],
    serialized_state: state,
  })
  const terminal = evidence.commitments.comparison_contract.value.terminal

  test('names each styled row by its number; plain rows and plain screens have none', () => {
    expect(screenStyles(frame('plain\r\n\x1b[1mbold\x1b[0m\r\nplain'), terminal)).toEqual([
      '2: 1-4 bold «bold»',
    ])
    expect(screenStyles(frame('plain\x1b[0m'), terminal)).toEqual([])
  })
})
