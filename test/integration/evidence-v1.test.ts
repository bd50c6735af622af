import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { captureProcess, compareCaptures } from '../../src/index.js'
import { parseEvidenceText } from '../../src/front-end.js'
import { program, REPO_ROOT } from '../helpers/fixtures.js'

/**
 * The frozen Evidence format: a version-1 file recorded by this release (test/fixtures/evidence/record.mjs)
 * must keep importing, and keep comparing equivalent with a fresh capture of the same scenario, in every
 * later release. A failure here means a change broke committed authority files.
 */
describe('Evidence format version 1', () => {
  const file = path.join(REPO_ROOT, 'test/fixtures/evidence/v1-job.capture.json')

  test('a version-1 file still imports', () => {
    const evidence = parseEvidenceText(readFileSync(file, 'utf8'), file)
    expect(evidence.format_version).toBe(1)
    expect(evidence.terminal.chunks.map((chunk) => chunk.data).join('')).toContain('Hello, Ada!')
  })

  // Made before terminal queries were answered, before REA named its width model and before input waited for
  // the terminal's exchange: its contract reads as answer_queries false, the unicode-6 width model and the
  // immediate dispatch model, so it compares with fresh captures made so, and is rejected (by contract) against
  // ones that answer queries, draw with the current widths or type as a person types.
  test(
    'and compares equivalent with a fresh capture of its scenario made without answering queries under unicode-6 widths, typed immediately',
    { timeout: 30_000 },
    async () => {
      const authority = parseEvidenceText(readFileSync(file, 'utf8'), file)
      const root = mkdtempSync(path.join(tmpdir(), 'rea-v1-'))
      try {
        const fresh = await captureProcess(
          {
            executable: program('job.mjs'),
            events: [{ type: 'input', at_ms: 1500, data: 'Ada\r' }],
            filesystem_observation_paths: ['out'],
            settle_ms: 50,
            terminal: { answer_queries: false, width_model: 'unicode-6' },
            event_dispatch: 'immediate',
          },
          { root },
        )
        const comparison = compareCaptures(authority, fresh)
        expect(comparison.verdict, JSON.stringify(comparison.dimensions, null, 1)).toBe('equivalent')
        const current = await captureProcess(
          {
            executable: program('job.mjs'),
            events: [{ type: 'input', at_ms: 1500, data: 'Ada\r' }],
            filesystem_observation_paths: ['out'],
            settle_ms: 50,
            terminal: { answer_queries: false },
            event_dispatch: 'immediate',
          },
          { root },
        )
        // Only REA's new default differs: the message says so and names the update flag.
        expect(() => compareCaptures(authority, current)).toThrow(
          expect.objectContaining({
            code: 'CONTRACT_MISMATCH',
            issues: [expect.objectContaining({ path: 'comparison_contract.terminal.width_model' })],
            hint: expect.stringMatching(/recorded before REA's current defaults.*vitest -u/),
          }),
        )
        const answering = await captureProcess(
          {
            executable: program('job.mjs'),
            events: [{ type: 'input', at_ms: 1500, data: 'Ada\r' }],
            filesystem_observation_paths: ['out'],
            settle_ms: 50,
            terminal: { width_model: 'unicode-6' },
            event_dispatch: 'immediate',
          },
          { root },
        )
        expect(() => compareCaptures(authority, answering)).toThrow(
          expect.objectContaining({
            code: 'CONTRACT_MISMATCH',
            issues: [
              expect.objectContaining({ path: 'comparison_contract.terminal.answer_queries' }),
              expect.objectContaining({ path: 'comparison_contract.terminal.reply_table' }),
            ],
          }),
        )
        const typed = await captureProcess(
          {
            executable: program('job.mjs'),
            events: [{ type: 'input', at_ms: 1500, data: 'Ada\r' }],
            filesystem_observation_paths: ['out'],
            settle_ms: 50,
            terminal: { answer_queries: false, width_model: 'unicode-6' },
          },
          { root },
        )
        // Typed as a person types by default now: one new default differs, and the message names -u.
        expect(() => compareCaptures(authority, typed)).toThrow(
          expect.objectContaining({
            code: 'CONTRACT_MISMATCH',
            issues: [expect.objectContaining({ path: 'comparison_contract.event_dispatch' })],
            hint: expect.stringMatching(
              /recorded before REA's current defaults \(input typed as a person types it.*vitest -u/,
            ),
          }),
        )
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    },
  )
})
