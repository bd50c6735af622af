import { describe, expect, test } from 'vitest'
import { authorityReview, serializeAuthority } from '../../../src/evidence/authority-document.js'
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
    const review = authorityReview(evidence)
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
