import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { authorityPathFor } from '../../../src/authority/authority-path.js'
import { writeAuthority } from '../../../src/authority/stored-authority.js'
import { authorityFileText } from '../../../src/authority/authority-text.js'
import { writePendingCapture } from '../../../src/authority/pending-store.js'
import type { Evidence } from '../../../src/index.js'
import { readPendingCapture } from '../../../src/review/pending-capture.js'
import { acceptPendingCapture, rejectPendingCapture } from '../../../src/review/review-actions.js'
import {
  acceptPendingCaptures,
  listPendingCaptures,
  pathsFor,
  showPendingCapture,
} from '../../../src/review/review-requests.js'
import { buildEvidence } from '../../helpers/build-evidence.js'

let project: string
let old: Evidence
let changed: Evidence
beforeAll(() => {
  project = mkdtempSync(path.join(tmpdir(), 'rea-review-'))
  old = buildEvidence([{ chunk: 'You have 3 tasks today.\r\n' }, { frame: 'retained' }])
  changed = buildEvidence([{ chunk: 'You have 3 chores today.\r\n' }, { frame: 'retained' }])
})
afterAll(() => rmSync(project, { recursive: true, force: true }))

const { show } = pathsFor(process.cwd())
const options = { force: false, recordUnfinished: false, acceptUnknowns: [] }

/** An authority of `old` for test `name` and a pending capture of `pending` beside it. */
function pendingFor(name: string, pending: Evidence = changed): { authority: string; pending: string } {
  const authority = authorityPathFor(path.join(project, 'todo.test.mjs'), name, 1)
  expect(writeAuthority(authority, old).failure).toBeNull()
  const written = writePendingCapture(authority, pending)
  if (written.state !== 'written') {
    throw new Error(`pending capture not written: ${written.code}`)
  }
  return { authority, pending: written.pending }
}

describe('acceptPendingCapture', () => {
  test('puts the pending bytes in place as the authority and removes the pending file', () => {
    const files = pendingFor('accepts')
    const bytes = readFileSync(files.pending, 'utf8')
    expect(acceptPendingCapture(files.pending, options, show)).toMatchObject({ outcome: 'accepted' })
    expect(readFileSync(files.authority, 'utf8')).toBe(bytes)
    expect(bytes).toBe(authorityFileText(changed))
    expect(existsSync(files.pending)).toBe(false)
  })

  test('refuses when the authority changed since, unless forced, saying so', () => {
    const files = pendingFor('changed since')
    writeAuthority(files.authority, buildEvidence([{ chunk: 'edited elsewhere\r\n' }]))
    const before = readFileSync(files.authority, 'utf8')
    const refused = acceptPendingCapture(files.pending, options, show)
    expect(refused).toMatchObject({ outcome: 'refused', reason: 'authority_changed' })
    expect(refused.message).toMatch(/changed after this capture was compared with it.*--force/s)
    expect(readFileSync(files.authority, 'utf8')).toBe(before)
    expect(existsSync(files.pending)).toBe(true)
    expect(acceptPendingCapture(files.pending, { ...options, force: true }, show).outcome).toBe('accepted')
  })

  test('refuses when the authority is gone, naming it and what to do', () => {
    const files = pendingFor('gone')
    rmSync(files.authority)
    const refused = acceptPendingCapture(files.pending, options, show)
    expect(refused).toMatchObject({ outcome: 'refused', reason: 'authority_missing' })
    expect(refused.message).toMatch(/is gone .*Reject it.*run it.*--force/s)
    expect(existsSync(files.authority)).toBe(false)
  })

  test('refuses a capture that could not stand as an authority, as -u does, unless allowed by name', () => {
    const timedOut = buildEvidence([
      { chunk: 'half\r\n' },
      { frame: 'retained' },
      { exit: { code: null, signal: 9, reason: 'timeout' } },
    ])
    const files = pendingFor('unfinished', timedOut)
    const refused = acceptPendingCapture(files.pending, options, show)
    expect(refused).toMatchObject({ outcome: 'refused', reason: 'refused' })
    expect(refused.message).toMatch(/did not run as its scenario expects.*timeout.*--record-unfinished/s)
    // --force is about the authority, never about the capture.
    expect(acceptPendingCapture(files.pending, { ...options, force: true }, show).outcome).toBe('refused')
    expect(acceptPendingCapture(files.pending, { ...options, recordUnfinished: true }, show).outcome).toBe(
      'accepted',
    )
  })

  test('refuses a capture whose authority would carry an unknown, as -u does, unless its reason is accepted', () => {
    const undrained = buildEvidence([{ chunk: 'You have 3 chores today.\r\n' }, { frame: 'retained' }], {
      drain: 'incomplete',
    })
    const files = pendingFor('carries an unknown', undrained)
    expect(readPendingCapture(files.pending, show)).toMatchObject({
      state: 'carries_unknowns',
      unknowns: [
        expect.objectContaining({ dimension: 'terminal', reason: 'terminal_incomplete' }),
        expect.objectContaining({ dimension: 'terminal', reason: 'drain_incomplete' }),
      ],
    })
    const before = readFileSync(files.authority, 'utf8')
    const refused = acceptPendingCapture(files.pending, options, show)
    expect(refused).toMatchObject({ outcome: 'refused', reason: 'carries_unknowns' })
    expect(refused.message).toMatch(
      /carries 2 unknowns.*- terminal: drain_incomplete \(.*To remove it: .*--accept-unknown terminal_incomplete --accept-unknown drain_incomplete/s,
    )
    for (const allowed of [
      { force: true },
      { recordUnfinished: true },
      { acceptUnknowns: ['drain_incomplete'] },
    ]) {
      expect(acceptPendingCapture(files.pending, { ...options, ...allowed }, show).outcome).toBe('refused')
    }
    expect(readFileSync(files.authority, 'utf8')).toBe(before)
    const acceptUnknowns = ['drain_incomplete', 'terminal_incomplete']
    const accepted = acceptPendingCapture(files.pending, { ...options, acceptUnknowns }, show)
    expect(accepted.outcome).toBe('accepted')
    expect(readFileSync(files.authority, 'utf8')).toContain('chores')
  })

  test.each([
    [
      'cut short',
      (text: string) => text.slice(0, text.length / 2),
      /not a whole pending capture.*not valid JSON/s,
    ],
    ['edited', (text: string) => text.replace('chores', 'choreS'), /not a whole pending capture/],
    [
      'of another version',
      (text: string) => text.replace('"format_version": 2', '"format_version": 9'),
      /another version of REA.*format version 9.*review it with the REA that wrote it/s,
    ],
  ])('refuses a pending file %s, naming it and what to do; the authority stays', (name, spoil, message) => {
    const files = pendingFor(`spoilt ${name}`)
    writeFileSync(files.pending, spoil(readFileSync(files.pending, 'utf8')))
    const before = readFileSync(files.authority, 'utf8')
    const refused = acceptPendingCapture(files.pending, options, show)
    expect(refused).toMatchObject({ outcome: 'refused', reason: 'unreadable' })
    expect(refused.message).toMatch(message)
    expect(refused.message).toContain(path.basename(files.pending))
    expect(refused.message).not.toMatch(/^\s+at /m)
    expect(readFileSync(files.authority, 'utf8')).toBe(before)
  })
})

describe('rejectPendingCapture', () => {
  test('removes the pending file and leaves the authority byte for byte', () => {
    const files = pendingFor('rejects')
    const before = readFileSync(files.authority)
    expect(rejectPendingCapture(files.pending, show).outcome).toBe('rejected')
    expect(existsSync(files.pending)).toBe(false)
    expect(readFileSync(files.authority).equals(before)).toBe(true)
  })
})

describe('review requests', () => {
  test('list each pending capture with its test, authority and differing dimensions', () => {
    const files = pendingFor('listed')
    const { entries } = listPendingCaptures({ filters: ['listed'], cwd: project, command: 'rea review' })
    expect(entries).toEqual([
      expect.objectContaining({
        pending_path: path.relative(project, files.pending),
        authority_path: path.relative(project, files.authority),
        test: { file: 'todo.test.mjs', name: 'listed', assertion: 1 },
        state: 'ready',
        verdict: 'different',
        differing_dimensions: ['terminal'],
      }),
    ])
  })

  test('show the review-section diff of one', () => {
    pendingFor('shown')
    const shown = showPendingCapture({ filters: ['shown'], cwd: project, command: 'rea review' })
    expect(shown.text).toMatch(/^-\s+"You have 3 tasks today\."$/m)
    expect(shown.text).toMatch(/^\+\s+"You have 3 chores today\."$/m)
    expect(shown.document['review_diff']).toMatch(/^\+ +"You have 3 chores today\."$/m)
  })

  test('a filter that selects nothing is an error, and nothing is done', () => {
    const files = pendingFor('kept by a typo')
    expect(() =>
      acceptPendingCaptures(
        { filters: ['kept by a typo', 'no such test'], cwd: project, command: 'rea review' },
        options,
      ),
    ).toThrow(/No pending capture matches "?no such test"?; nothing was done/)
    expect(existsSync(files.pending)).toBe(true)
  })

  test('a folder, a test file or a path outside the project folder is refused when confined', () => {
    expect(() =>
      listPendingCaptures({ filters: [tmpdir()], cwd: project, confine: project, command: 'rea review' }),
    ).toThrow(/lies outside the server's project folder/)
  })

  test('readPendingCapture refuses a file not named as a pending capture', () => {
    expect(() => readPendingCapture(path.join(project, 'x.json'), show)).toThrow(/is not a pending capture/)
  })
})
