import { beforeAll, describe, expect, test } from 'vitest'
import type { ReaErrorCode } from '../../../src/errors.js'
import { EVIDENCE_FORMAT_VERSION } from '../../../src/evidence/format.js'
import { computeIdentityDigest } from '../../../src/evidence/identity-digest.js'
import { parseEvidence, parseEvidenceText } from '../../../src/evidence/load.js'
import { serializeEvidence } from '../../../src/evidence/serialize.js'
import type { Evidence } from '../../../src/evidence/schema.js'
import { buildEvidence, effect } from '../../helpers/build-evidence.js'
import { rejection } from '../../helpers/rejection.js'

let captured: Evidence

beforeAll(() => {
  // Every journal test below relies on at least one chunk and the exit being present.
  captured = buildEvidence([{ chunk: 'hello\r\n' }, { frame: 'retained' }])
})

/** A deep copy of the captured Evidence, changed by `change`, with the digest recomputed when `reseal`. */
function edited(
  change: (document: Evidence) => void,
  { reseal }: { reseal: boolean },
): Record<string, unknown> {
  const document = structuredClone(captured)
  change(document)
  const record = document as unknown as Record<string, unknown>
  if (reseal) {
    record['identity_digest'] = computeIdentityDigest(record)
  }
  return record
}

const issue = (path: string, rule: string) => expect.objectContaining({ path, rule }) as unknown

/** The same value with object keys sorted at every level, written independently of the code under test. */
function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(sortedDeep)
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortedDeep((value as Record<string, unknown>)[key])]),
    )
  }
  return value
}

function objectsWithUnsortedKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => objectsWithUnsortedKeys(item, `${path}[${index}]`))
  }
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value)
    const own = keys.join() === [...keys].sort().join() ? [] : [path]
    return [
      ...own,
      ...keys.flatMap((key) =>
        objectsWithUnsortedKeys((value as Record<string, unknown>)[key], `${path}.${key}`),
      ),
    ]
  }
  return []
}

describe('parseEvidence', () => {
  test('parses a captured document back after a JSON round trip', () => {
    const document: unknown = JSON.parse(JSON.stringify(captured))
    expect(parseEvidence(document)).toEqual(captured)
  })

  test('accepts a document whose keys are in a different order', () => {
    const reversed = Object.fromEntries(Object.entries(structuredClone(captured)).reverse())
    expect(parseEvidence(reversed)).toEqual(captured)
  })

  test.for([
    ['null', null],
    ['an array', []],
    ['a string', 'evidence'],
    ['a number', 0],
  ] as const)('rejects %s as INVALID_EVIDENCE', ([, document]) => {
    const error = rejection(() => parseEvidence(document, 'capture.json'))
    expect(error.code).toBe('INVALID_EVIDENCE')
    expect(error.message).toContain('capture.json')
    expect(error.message).toContain('expected a JSON object')
  })

  test.for([
    ['a different format', 'rea.something-else'],
    ['no format', undefined],
    ['a numeric format', 1],
  ] as const)('rejects a document with %s as INVALID_EVIDENCE', ([, format]) => {
    const document = { ...structuredClone(captured), format }
    const error = rejection(() => parseEvidence(document))
    expect(error.code).toBe('INVALID_EVIDENCE')
    expect(error.message).toContain('"rea.process-capture.evidence"')
  })

  test('names a missing truncation_details and tells to recapture', () => {
    const document = edited((evidence) => Reflect.deleteProperty(evidence, 'truncation_details'), {
      reseal: true,
    })
    const error = rejection(() => parseEvidence(document))
    expect(error.code).toBe('INVALID_EVIDENCE')
    expect(error.issues).toEqual([issue('truncation_details', 'required')])
    expect(error.issues[0]?.message).toContain('recapture')
  })

  test.for<[string, (evidence: Evidence) => void]>([
    ['exit.code', (evidence) => void (evidence.exit.code = 1)],
    ['a chunk', (evidence) => void (evidence.terminal.chunks[0]!.data = 'jello\r\n')],
    ['the capture root', (evidence) => void (evidence.host.capture_root = '/elsewhere')],
    ['a commitment', (evidence) => void (evidence.commitments.scenario.value.timeout_ms = 1)],
    ['the disposition', (evidence) => void (evidence.disposition = 'timeout')],
  ])('rejects an edit of %s without a new digest as EVIDENCE_DIGEST_MISMATCH', ([, change]) => {
    const document = edited(change, { reseal: false })
    const error = rejection(() => parseEvidence(document))
    expect(error.code).toBe('EVIDENCE_DIGEST_MISMATCH')
    expect(error.issues).toContainEqual(issue('identity_digest', 'identity_digest'))
    expect(error.issues.map((found) => found.message).join('\n')).toContain(computeIdentityDigest(document))
  })

  test('rejects a document whose digest was replaced by another valid-looking digest', () => {
    const document = { ...structuredClone(captured), identity_digest: '0'.repeat(64) }
    expect(rejection(() => parseEvidence(document)).code).toBe('EVIDENCE_DIGEST_MISMATCH')
  })

  test('accepts an edit whose digest was recomputed while the document stays schema-valid', () => {
    const document = edited((evidence) => (evidence.exit.code = 1), { reseal: true })
    const parsed = parseEvidence(document)
    expect(parsed.exit.code).toBe(1)
    expect(parsed.identity_digest).not.toBe(captured.identity_digest)
  })

  test('rejects an edit that breaks the schema even with a recomputed digest', () => {
    const document = edited((evidence) => Object.assign(evidence.exit, { code: 'zero' }), { reseal: true })
    const error = rejection(() => parseEvidence(document))
    expect(error.code).toBe('INVALID_EVIDENCE')
    expect(error.issues).toEqual([issue('exit.code', 'type')])
  })

  test('rejects another format version with a message telling to recapture', () => {
    const document = edited((evidence) => (evidence.format_version = EVIDENCE_FORMAT_VERSION + 1), {
      reseal: true,
    })
    const error = rejection(() => parseEvidence(document))
    expect(error.code).toBe('UNSUPPORTED_EVIDENCE_VERSION')
    expect(error.issues).toEqual([issue('format_version', 'format_version')])
    expect(error.issues[0]?.message).toContain('recapture')
    expect(error.issues[0]?.message).toContain(String(EVIDENCE_FORMAT_VERSION + 1))
  })

  describe('journal', () => {
    test('rejects a document with a journal entry removed', () => {
      let removed = -1
      const document = edited(
        (evidence) => {
          removed = evidence.terminal.chunks[0]!.sequence
          evidence.terminal.chunks = evidence.terminal.chunks.slice(1)
          evidence.truncation_details.raw_terminal.retained_chunks -= 1
        },
        { reseal: true },
      )
      const error = rejection(() => parseEvidence(document))
      expect(error.code).toBe('INVALID_EVIDENCE')
      expect(error.issues).toEqual([issue('journal', 'journal_sequence')])
      expect(error.issues[0]?.message).toContain('missing')
      expect(error.issues[0]?.message).toMatch(new RegExp(`: ${removed}$`))
    })

    test('rejects a document with every chunk removed', () => {
      const document = edited(
        (evidence) => {
          evidence.terminal.chunks = []
          evidence.truncation_details.raw_terminal.retained_chunks = 0
        },
        { reseal: true },
      )
      const error = rejection(() => parseEvidence(document))
      expect(error.issues.map((found) => found.rule)).toEqual(['journal_sequence'])
    })

    test('rejects a sequence number used twice', () => {
      let duplicated = -1
      const document = edited(
        (evidence) => {
          duplicated = evidence.terminal.chunks[0]!.sequence
          evidence.terminal.chunks.push({ ...evidence.terminal.chunks[0]! })
          evidence.truncation_details.raw_terminal.retained_chunks += 1
        },
        { reseal: true },
      )
      const error = rejection(() => parseEvidence(document))
      expect(error.code).toBe('INVALID_EVIDENCE')
      expect(error.issues).toEqual([issue('journal', 'journal_sequence')])
      expect(error.issues[0]?.message).toContain(`used twice: ${duplicated}`)
    })

    test('rejects two entries of different kinds sharing a sequence number', () => {
      const document = edited(
        (evidence) => (evidence.exit.sequence = evidence.terminal.chunks[0]!.sequence),
        {
          reseal: true,
        },
      )
      const error = rejection(() => parseEvidence(document))
      expect(error.issues.length).toBeGreaterThan(0)
      expect(error.issues.every((found) => found.rule === 'journal_sequence')).toBe(true)
      expect(error.issues.map((found) => found.message).join('\n')).toContain('used twice')
    })

    test('rejects a next_sequence no greater than the highest sequence number', () => {
      const document = edited((evidence) => (evidence.journal.next_sequence -= 1), { reseal: true })
      const error = rejection(() => parseEvidence(document))
      expect(error.issues).toEqual([issue('journal.next_sequence', 'journal_sequence')])
    })

    test('rejects a next_sequence that leaves a sequence number unused', () => {
      const document = edited((evidence) => (evidence.journal.next_sequence += 1), { reseal: true })
      const error = rejection(() => parseEvidence(document))
      expect(error.issues).toEqual([issue('journal', 'journal_sequence')])
      expect(error.issues[0]?.message).toMatch(new RegExp(`: ${captured.journal.next_sequence}$`))
    })
  })

  test('reports schema, digest and version problems together, schema first', () => {
    const document = edited(
      (evidence) => {
        Reflect.deleteProperty(evidence, 'truncation_details')
        evidence.format_version = EVIDENCE_FORMAT_VERSION + 1
      },
      { reseal: false },
    )
    const error = rejection(() => parseEvidence(document))
    const expectedCode: ReaErrorCode = 'INVALID_EVIDENCE'
    expect(error.code).toBe(expectedCode)
    expect(error.issues).toEqual([
      issue('truncation_details', 'required'),
      issue('identity_digest', 'identity_digest'),
      issue('format_version', 'format_version'),
    ])
    expect(error.message).toContain('3 problems')
  })

  test('reports a digest mismatch before a version problem', () => {
    const document = edited((evidence) => (evidence.format_version = EVIDENCE_FORMAT_VERSION + 1), {
      reseal: false,
    })
    const error = rejection(() => parseEvidence(document))
    expect(error.code).toBe('EVIDENCE_DIGEST_MISMATCH')
    expect(error.issues.map((found) => found.path)).toEqual(['identity_digest', 'format_version'])
  })

  test('gives every issue a path, a rule and a message', () => {
    const document = edited(
      (evidence) => {
        Reflect.deleteProperty(evidence, 'settlement')
        Object.assign(evidence, { extra: true })
      },
      { reseal: false },
    )
    const error = rejection(() => parseEvidence(document))
    expect(error.issues.length).toBeGreaterThanOrEqual(3)
    for (const found of error.issues) {
      expect(found).toEqual({
        path: expect.any(String),
        rule: expect.any(String),
        message: expect.any(String),
      })
      expect(found.message).not.toBe('')
    }
    expect(error.issues).toEqual(
      expect.arrayContaining([issue('settlement', 'required'), issue('extra', 'unknown_field')]),
    )
  })
})

describe('parseEvidence: summary flags agree with their accounting', () => {
  const cases: [string, (evidence: Evidence) => void, string][] = [
    ['top-level truncated', (e) => (e.truncated = !e.truncated), 'truncated'],
    [
      'raw terminal truncated',
      (e) => (e.truncation_details.raw_terminal.truncated = !e.truncation_details.raw_terminal.truncated),
      'truncation_details.raw_terminal.truncated',
    ],
    [
      'rendered terminal truncated',
      (e) => (e.truncation_details.rendered_terminal.truncated = true),
      'truncation_details.rendered_terminal.truncated',
    ],
    [
      'omitted chunk count',
      (e) => (e.truncation_details.raw_terminal.omitted_chunks += 1),
      'truncation_details.raw_terminal.omitted_chunks',
    ],
    [
      'retained chunk count',
      (e) => (e.truncation_details.raw_terminal.retained_chunks += 1),
      'truncation_details.raw_terminal.retained_chunks',
    ],
    ['journal complete', (e) => (e.journal.complete = !e.journal.complete), 'journal.complete'],
  ]
  test.each(cases)('rejects an edited %s flag even with the digest recomputed', (_name, change, path) => {
    const error = rejection(() => parseEvidence(edited(change, { reseal: true })))
    expect(error.code).toBe('INVALID_EVIDENCE')
    expect(error.issues).toContainEqual(expect.objectContaining({ path, rule: 'accounting_consistency' }))
  })
})

describe('parseEvidence: skip causes', () => {
  const withSkip = (interaction: Partial<Evidence['interactions'][number]>) => {
    const evidence = structuredClone(
      buildEvidence([
        { chunk: 'hello\r\n' },
        { interaction: { event_index: 0, outcome: 'skipped', reason: 'the target had exited' } },
      ]),
    )
    Object.assign(evidence.interactions[0]!, interaction)
    const record = evidence as unknown as Record<string, unknown>
    record['identity_digest'] = computeIdentityDigest(record)
    return record
  }

  test('accepts a skipped event with its cause, and one written before causes were recorded', () => {
    expect(parseEvidence(withSkip({ cause: 'target_exited' })).interactions[0]!.cause).toBe('target_exited')
    expect(parseEvidence(withSkip({})).interactions[0]!.cause).toBeUndefined()
  })

  test.each([
    ['a dispatched event', { outcome: 'dispatched', cause: 'deadline' }],
    ['wait_timed_out without that reason', { cause: 'wait_timed_out' }],
    ['that reason with another cause', { reason: 'wait_timed_out', cause: 'deadline', wait: undefined }],
  ] as const)('rejects a cause on %s', (_name, change) => {
    const error = rejection(() => parseEvidence(withSkip(change)))
    expect(error.issues).toContainEqual(expect.objectContaining({ path: 'interactions[0].cause' }))
  })
})

describe('parseEvidence: commitments', () => {
  test('rejects an edited commitment value even with the identity digest recomputed', () => {
    const document = edited((e) => (e.commitments.comparison_contract.value.settle_ms += 1), { reseal: true })
    const error = rejection(() => parseEvidence(document))
    expect(error.code).toBe('EVIDENCE_DIGEST_MISMATCH')
    expect(error.issues).toEqual([issue('commitments.comparison_contract.sha256', 'commitment_digest')])
  })
})

describe('parseEvidence on large and filesystem captures', () => {
  // Seconds of parsing on a loaded CI host: a bound for a stalled test, not a speed claim.
  test('accepts a journal of 200,000 entries (no call-stack overflow)', { timeout: 60_000 }, () => {
    const big = structuredClone(captured)
    const template = big.terminal.chunks[0]!
    const count = 200_000
    big.terminal.chunks = Array.from({ length: count }, (_, sequence) => ({
      ...template,
      sequence,
      data: 'x',
      byte_length: 1,
    }))
    const others = [
      ...big.terminal.frames,
      ...big.interactions,
      ...big.process.samples,
      ...big.filesystem.checkpoints,
      big.exit,
    ]
    others
      .sort((a, b) => a.sequence - b.sequence)
      .forEach((record, index) => (record.sequence = count + index))
    big.journal.next_sequence = count + others.length
    const raw = big.truncation_details.raw_terminal
    raw.retained_chunks = count
    raw.observed_chunks = count + raw.omitted_chunks
    raw.retained_bytes = count
    raw.observed_bytes = count + raw.omitted_bytes
    const record = big as unknown as Record<string, unknown>
    record['identity_digest'] = computeIdentityDigest(record)
    expect(parseEvidence(record).terminal.chunks).toHaveLength(count)
  })

  test('rejects filesystem accounting whose truncated flag contradicts its roots', () => {
    const evidence = buildEvidence([], { effects: [effect('root_0:report.json', 'created')] })
    const copy = structuredClone(evidence)
    copy.truncation_details.filesystem_after!.truncated = true
    copy.truncated = true
    const record = copy as unknown as Record<string, unknown>
    record['identity_digest'] = computeIdentityDigest(record)
    const error = rejection(() => parseEvidence(record))
    expect(error.issues).toContainEqual(
      expect.objectContaining({
        path: 'truncation_details.filesystem_after.truncated',
        rule: 'accounting_consistency',
      }),
    )
  })
})

describe('parseEvidenceText', () => {
  test('parses serialized Evidence', () => {
    expect(parseEvidenceText(JSON.stringify(captured))).toEqual(captured)
  })

  test.for([
    ['empty text', ''],
    ['blank text', ' \n\t'],
  ] as const)('rejects %s as INVALID_EVIDENCE', ([, text]) => {
    const error = rejection(() => parseEvidenceText(text, 'authority.json'))
    expect(error.code).toBe('INVALID_EVIDENCE')
    expect(error.message).toContain('authority.json is empty')
  })

  test.for(['{', 'not json', '{"format": "rea.process-capture.evidence",}'])(
    'rejects the invalid JSON %j as INVALID_EVIDENCE keeping the parse error as cause',
    (text) => {
      const error = rejection(() => parseEvidenceText(text, 'authority.json'))
      expect(error.code).toBe('INVALID_EVIDENCE')
      expect(error.message).toContain('authority.json is not valid JSON')
      expect(error.cause).toBeInstanceOf(SyntaxError)
    },
  )

  test.for(['[]', '[1, 2]', 'null', '"text"', '42'])(
    'rejects the JSON value %s as INVALID_EVIDENCE',
    (text) => {
      expect(rejection(() => parseEvidenceText(text)).code).toBe('INVALID_EVIDENCE')
    },
  )

  test('rejects a JSON object of another format as INVALID_EVIDENCE', () => {
    const error = rejection(() => parseEvidenceText('{"format": "other", "format_version": 0}'))
    expect(error.code).toBe('INVALID_EVIDENCE')
    expect(error.message).toContain('"other"')
  })

  test('validates the parsed document like parseEvidence does', () => {
    const text = JSON.stringify(edited((evidence) => (evidence.exit.code = 9), { reseal: false }))
    expect(rejection(() => parseEvidenceText(text)).code).toBe('EVIDENCE_DIGEST_MISMATCH')
  })
})

describe('serializeEvidence', () => {
  test('writes canonical JSON: sorted keys, two-space indent and one trailing newline', () => {
    const text = serializeEvidence(captured)
    expect(text).toBe(`${JSON.stringify(sortedDeep(captured), null, 2)}\n`)
    expect(text.endsWith('}\n')).toBe(true)
    expect(text.endsWith('\n\n')).toBe(false)
    expect(text.split('\n')[1]).toMatch(/^ {2}"captured_at": /)
    expect(objectsWithUnsortedKeys(JSON.parse(text))).toEqual([])
  })

  test('writes the same text whatever the key order of the input', () => {
    const reversed = Object.fromEntries(Object.entries(structuredClone(captured)).reverse()) as Evidence
    expect(serializeEvidence(reversed)).toBe(serializeEvidence(captured))
  })

  test('writes text that parses back to the same Evidence', () => {
    const text = serializeEvidence(captured)
    expect(parseEvidenceText(text)).toEqual(captured)
    expect(serializeEvidence(parseEvidenceText(text))).toBe(text)
  })
})
