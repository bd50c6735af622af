import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { authorityPathFor, isDefaultAuthorityName } from '../../../src/authority/authority-path.js'
import { authorityFileText } from '../../../src/authority/authority-text.js'
import { authorityFingerprint, pendingPathFor } from '../../../src/authority/pending-path.js'
import { pendingCapturesOf } from '../../../src/authority/pending-store.js'
import { matchCapture, type CaptureMatchRequest } from '../../../src/authority/match-capture.js'
import { matchTrace } from '../../../src/authority/match-trace.js'
import { updateModeOf } from '../../../src/authority/update-mode.js'
import { computeIdentityDigest } from '../../../src/evidence/identity-digest.js'
import type { Evidence } from '../../../src/index.js'
import { buildEvidence } from '../../helpers/build-evidence.js'
import { rawControlCharacters } from '../../helpers/control-characters.js'
import { rederive } from '../../helpers/rederive.js'

let capture: Evidence
let other: Evidence
let directory: string
beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'rea-authority-'))
  capture = buildEvidence([{ chunk: 'same\r\n' }, { frame: 'retained' }])
  other = buildEvidence([{ chunk: 'other\r\n' }, { frame: 'retained' }])
})
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const request = (overrides: Partial<CaptureMatchRequest>): CaptureMatchRequest => ({
  received: capture,
  authority: undefined,
  testPath: path.join(directory, 'cli.test.ts'),
  testName: 'greets',
  assertion: 1,
  updateMode: 'new',
  isNot: false,
  updateCommand: 'vitest -u',
  root: directory,
  color: false,
  timing: 'tolerant',
  terminal: 'stream',
  ...overrides,
})

describe('authority paths', () => {
  test('sit next to the test, named after the test and the assertion, with a hash of that exact key', () => {
    expect(authorityPathFor('/repo/src/cli.test.ts', 'prompt > greets the user', 2)).toMatch(
      /^\/repo\/src\/__captures__\/cli\.test\.ts\/prompt › greets the user 2-[0-9a-f]{8}\.capture\.json$/,
    )
  })

  test('names that map to the same readable part, or differ only in case, never share a file', () => {
    const names = ['reads a/b', 'reads a:b', 'Greets', 'greets']
    const files = names.map((name) => authorityPathFor('/r/a.test.ts', name, 1).toLowerCase())
    expect(new Set(files).size).toBe(names.length)
  })

  test('stay within file-name limits in bytes, also for non-Latin names', () => {
    for (const name of ['x'.repeat(300), '漢'.repeat(200)]) {
      expect(Buffer.byteLength(path.basename(authorityPathFor('/r/a.test.ts', name, 1)))).toBeLessThanOrEqual(
        130,
      )
    }
  })
})

describe('update mode', () => {
  test('reads Vitest’s public getter, then the private field both runners keep', () => {
    expect(updateModeOf({ snapshotUpdateState: 'all', _updateSnapshot: 'none' })).toBe('all')
    expect(updateModeOf({ _updateSnapshot: 'none' })).toBe('none')
  })
})

describe('matchTrace', () => {
  const spec = {
    format: 'rea.process-capture.trace-spec',
    format_version: 1,
    events: [{ id: 'wrong', line: 'not what it printed' }],
    order: [],
  }
  test('.not holds for a proven violation (the runner inverts pass)', () => {
    const result = matchTrace({
      received: capture,
      spec,
      testPath: path.join(directory, 'x.test.ts'),
      isNot: true,
    })
    expect(result.result?.verdict).toBe('violated')
    expect(result.pass).toBe(false)
  })
})

describe('control characters in matcher messages', () => {
  const escaped = (message: string, shown: string) => {
    expect(rawControlCharacters(message)).toEqual([])
    expect(message).toContain(shown)
  }

  test('are made visible in the terminal lines a trace message quotes', () => {
    // DEL and NEL (a C1 control) survive line normalization and JSON quoting.
    const printed = buildEvidence([{ chunk: 'PWNED\u007f\u0085x\r\n' }, { exit: { code: 0, signal: 0 } }])
    const trace = matchTrace({
      received: printed,
      spec: { format: 'rea.process-capture.trace-spec', format_version: 1, events: [], order: [] },
      testPath: path.join(directory, 'x.test.ts'),
      isNot: false,
    })
    escaped(trace.message, 'PWNED\\x7f\\u0085x')
  })

  test('are made visible in the authority path a capture message quotes', () => {
    const missing = matchCapture(
      request({ authority: 'evil-\u001b]0;PWNED\u0007.capture.json', updateMode: 'none' }),
    )
    escaped(missing.message, 'evil-\\e]0;PWNED\\x07')
  })
})

describe('matchCapture', () => {
  test('records a missing authority, then matches it', () => {
    const written = matchCapture(request({ testName: 'records' }))
    expect(written).toMatchObject({ pass: true, count: 'added' })
    expect(existsSync(written.authorityPath!)).toBe(true)
    expect(matchCapture(request({ testName: 'records' }))).toMatchObject({ pass: true, count: 'matched' })
  })

  test('writes nothing in mode none and says how to record', () => {
    const result = matchCapture(request({ testName: 'in ci', updateMode: 'none' }))
    expect(result.pass).toBe(false)
    expect(result.message).toContain('`vitest -u`')
    expect(existsSync(result.authorityPath!)).toBe(false)
  })

  test('a difference fails, is rewritten only in mode all, and satisfies .not', () => {
    matchCapture(request({ testName: 'changes' }))
    const different = matchCapture(request({ testName: 'changes', received: other }))
    expect(different).toMatchObject({ pass: false, count: 'unmatched' })
    expect(different.message).toContain('First divergence')
    // The runner's diff gets the checkpoint screens as text, never the raw stream.
    expect(different.expected).toContain('── checkpoint 0 · final (80×24) ──')
    expect(different.actual).toContain('── checkpoint 0 · final (80×24) ──')
    // .not: the runner inverts pass, so false here means the assertion holds.
    expect(matchCapture(request({ testName: 'changes', received: other, isNot: true })).pass).toBe(false)
    expect(matchCapture(request({ testName: 'changes', received: other, updateMode: 'all' }))).toMatchObject({
      pass: true,
      count: 'updated',
    })
    expect(matchCapture(request({ testName: 'changes', received: other }))).toMatchObject({ pass: true })
  })

  test('an unknown comparison fails both ways', () => {
    // The same output, but this side's drain was incomplete: equality cannot be established.
    const unknown = structuredClone(capture)
    unknown.truncation_details.raw_terminal.drain = 'incomplete'
    rederive(unknown)
    const against = request({ authority: capture, received: resealed(unknown) })
    const plain = matchCapture(against)
    const negated = matchCapture({ ...against, isNot: true })
    expect(plain.pass).toBe(false)
    expect(plain.message).toContain('unknown is never equal')
    // Under .not the runner inverts pass: true here means the assertion fails.
    expect(negated.pass).toBe(true)
    expect(negated.message).toContain('unknown is neither equal nor different')
  })

  test('an authority carrying an unknown is not written unless its reason is accepted by name', () => {
    const unknown = structuredClone(capture)
    unknown.truncation_details.raw_terminal.drain = 'incomplete'
    rederive(unknown)
    const received = resealed(unknown)
    for (const updateMode of ['new', 'all'] as const) {
      const refused = matchCapture(request({ testName: `carries ${updateMode}`, received, updateMode }))
      expect(refused.pass).toBe(false)
      expect(existsSync(refused.authorityPath!)).toBe(false)
      expect(refused.message).toContain('was not written: this capture carries')
      expect(refused.message).toContain('- terminal: drain_incomplete (')
      expect(refused.message).toContain('To remove it: the terminal closed before REA had read everything')
      expect(refused.message).toMatch(/acceptUnknowns: \[[^\]]*"drain_incomplete"/)
    }
    // -u over an existing authority is refused the same way, and the old file stays.
    matchCapture(request({ testName: 'carries replace' }))
    const replaced = matchCapture(request({ testName: 'carries replace', received, updateMode: 'all' }))
    expect(replaced.message).toContain('was not rewritten')
    expect(matchCapture(request({ testName: 'carries replace' }))).toMatchObject({
      pass: true,
      count: 'matched',
    })
    const reasons = JSON.parse(/acceptUnknowns: (\[[^\]]*\])/.exec(replaced.message)![1]!) as string[]
    const partly = matchCapture(
      request({ testName: 'carries new', received, acceptUnknowns: reasons.slice(1) }),
    )
    expect(partly.pass).toBe(false)
    const accepted = matchCapture(request({ testName: 'carries new', received, acceptUnknowns: reasons }))
    expect(accepted).toMatchObject({ pass: true, count: 'added' })
    expect(existsSync(accepted.authorityPath!)).toBe(true)
  })

  test('an authority that cannot be written fails with the path and the OS code', () => {
    // A regular file where the authority's folder would be: no folder can be made there.
    writeFileSync(path.join(directory, 'blocker'), '')
    const result = matchCapture(request({ authority: 'blocker/here.capture.json' }))
    expect(result.pass).toBe(false)
    expect(result.message).toMatch(/could not be written \(E[A-Z]+\)/)
  })

  test('rejects a received value that is not Evidence, with the reason', () => {
    const result = matchCapture(request({ received: { format: 'nope' } }))
    expect(result.pass).toBe(false)
    expect(result.message).toContain('needs the Evidence returned by captureProcess')
  })
})

describe('pending captures', () => {
  const pendingOf = (authority: string) => pendingCapturesOf(authority)

  test('a local mismatch keeps the capture beside its authority, as -u would write it, and names it', () => {
    const authority = matchCapture(request({ testName: 'pending kept' })).authorityPath!
    const result = matchCapture(request({ testName: 'pending kept', received: other }))
    expect(result.pass).toBe(false)
    const [pending] = pendingOf(authority)
    expect(result.pendingPath).toBe(pending)
    expect(path.basename(pending!)).toBe(
      `${path.basename(authority, '.capture.json')}.${authorityFingerprint(readFileSync(authority))}.pending-capture.json`,
    )
    expect(path.basename(pending!).startsWith(path.basename(authority, '.capture.json'))).toBe(true)
    expect(isDefaultAuthorityName(path.basename(pending!))).toBe(false)
    expect(readFileSync(pending!, 'utf8')).toBe(authorityFileText(other))
    expect(result.message).toContain(`pending review in ${path.relative(directory, pending!)}`)
    expect(result.message).toContain('`npx rea review`')
  })

  test('a second mismatch replaces it and says so; a match, or -u, removes it', () => {
    const authority = matchCapture(request({ testName: 'pending stale' })).authorityPath!
    matchCapture(request({ testName: 'pending stale', received: other }))
    const third = buildEvidence([{ chunk: 'third\r\n' }, { frame: 'retained' }])
    const again = matchCapture(request({ testName: 'pending stale', received: third }))
    expect(again.message).toContain('It replaces the pending capture')
    expect(pendingOf(authority)).toHaveLength(1)
    expect(readFileSync(pendingOf(authority)[0]!, 'utf8')).toBe(authorityFileText(third))
    expect(matchCapture(request({ testName: 'pending stale' })).pass).toBe(true)
    expect(pendingOf(authority)).toEqual([])

    matchCapture(request({ testName: 'pending stale', received: other }))
    expect(pendingOf(authority)).toHaveLength(1)
    expect(
      matchCapture(request({ testName: 'pending stale', received: other, updateMode: 'all' })).pass,
    ).toBe(true)
    expect(pendingOf(authority)).toEqual([])
  })

  test('CI and .not never write one', () => {
    const authority = matchCapture(request({ testName: 'pending ci' })).authorityPath!
    expect(matchCapture(request({ testName: 'pending ci', received: other, updateMode: 'none' })).pass).toBe(
      false,
    )
    matchCapture(request({ testName: 'pending ci', received: other, isNot: true }))
    expect(pendingOf(authority)).toEqual([])
  })

  test('a capture that could not stand as an authority is not kept, and the message says why', () => {
    const authority = matchCapture(request({ testName: 'pending flawed' })).authorityPath!
    const timedOut = buildEvidence([
      { chunk: 'half\r\n' },
      { frame: 'retained' },
      { exit: { code: null, signal: 9, reason: 'timeout' } },
    ])
    const result = matchCapture(request({ testName: 'pending flawed', received: timedOut }))
    expect(result.pass).toBe(false)
    expect(result.message).toContain('was not kept for review')
    expect(pendingOf(authority)).toEqual([])
    // Unless the assertion records such runs.
    matchCapture(request({ testName: 'pending flawed', received: timedOut, recordUnfinished: true }))
    expect(pendingOf(authority)).toHaveLength(1)
  })

  test('one that cannot be written fails with its path and the OS code, never a stack trace', () => {
    const authority = matchCapture(request({ testName: 'pending blocked' })).authorityPath!
    const pending = pendingPathFor(authority, authorityFingerprint(readFileSync(authority)))
    mkdirSync(pending)
    const result = matchCapture(request({ testName: 'pending blocked', received: other }))
    expect(result.pass).toBe(false)
    expect(result.message).toMatch(/could not be kept for review in .*pending-capture\.json \(E[A-Z]+\)/)
  })
})

function resealed(evidence: Evidence): Evidence {
  const record = evidence as unknown as Record<string, unknown>
  record['identity_digest'] = computeIdentityDigest(record)
  return evidence
}
