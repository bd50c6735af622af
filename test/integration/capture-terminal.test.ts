import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { captureProcess, parseEvidence, type Evidence, type TerminalFrame } from '../../src/index.js'
import { program } from '../helpers/fixtures.js'

const retained = (frame: TerminalFrame | undefined) => {
  expect(frame?.status).toBe('retained')
  return frame as Extract<TerminalFrame, { status: 'retained' }>
}
const finalFrame = (evidence: Evidence) =>
  retained(evidence.terminal.frames.find((frame) => frame.trigger === 'final'))
const stream = (evidence: Evidence) => evidence.terminal.chunks.map((chunk) => chunk.data).join('')

describe('captureProcess', () => {
  test('records a normal exit with its code and the output in order', async () => {
    const evidence = await captureProcess({ executable: program('exit-with.sh'), arguments: ['3', 'bye'] })
    expect(evidence.exit).toMatchObject({ code: 3, signal: 0, reason: 'exited' })
    expect(evidence.disposition).toBe('exited')
    expect(stream(evidence)).toBe('bye\r\n')
    expect(evidence.truncated).toBe(false)
    expect(evidence.journal.complete).toBe(true)
    expect(parseEvidence(JSON.parse(JSON.stringify(evidence)))).toEqual(evidence)
  })

  test('records a signalled exit with a null code and the signal number', async () => {
    const evidence = await captureProcess({ executable: program('exit-with.sh'), arguments: ['SIGTERM'] })
    expect(evidence.exit).toMatchObject({ code: null, signal: 15, reason: 'exited' })
  })

  test('renders every visible row, trims only trailing spaces and reports the cursor', async () => {
    const evidence = await captureProcess({
      executable: 'bash',
      arguments: ['-c', String.raw`printf '\e[31mred\e[0m   \n\tx \n  indented'`],
      terminal: { columns: 20, rows: 5, scrollback: 0 },
    })
    const frame = finalFrame(evidence)
    expect(frame.lines).toEqual(['red', '        x', '  indented', '', ''])
    expect(frame).toMatchObject({ columns: 20, rows: 5, cursor: { row: 2, column: 10 }, checkpoint: true })
    expect(frame.serialized_state).toContain('\u001b[31mred')
  })

  test('keeps a character split across PTY reads whole', async () => {
    // "é" (c3 a9) and "€" (e2 82 ac) written one byte at a time, with pauses between the writes.
    const evidence = await captureProcess({
      executable: program('write-bytes.mjs'),
      arguments: ['30', '41c3', 'a9e2', '82', 'ac0a'],
    })
    expect(stream(evidence)).toBe('Aé€\r\n')
    expect(evidence.terminal.chunks.every((chunk) => chunk.bytes_base64 === undefined)).toBe(true)
    expect(evidence.terminal.chunks.reduce((sum, chunk) => sum + chunk.byte_length, 0)).toBe(8)
  })

  test('keeps the exact bytes of output that is not valid UTF-8', async () => {
    const evidence = await captureProcess({
      executable: program('write-bytes.mjs'),
      arguments: ['0', '41ff4230'],
    })
    const chunks = evidence.terminal.chunks
    expect(stream(evidence)).toBe('A\uFFFDB0')
    const bytes = Buffer.concat(
      chunks.map((chunk) =>
        Buffer.from(chunk.bytes_base64 ?? chunk.data, chunk.bytes_base64 === undefined ? 'utf8' : 'base64'),
      ),
    )
    expect(bytes.toString('hex')).toBe('41ff4230')
  })

  test('keeps no raw_data while normalization leaves chunks unchanged', async () => {
    // Counters, dimensions and bare host labels are not ports, so nothing here is normalized.
    const evidence = await captureProcess({
      executable: 'echo',
      arguments: ['attempt 3/10 at 80x24 on db:5432'],
    })
    expect(evidence.terminal.chunks.some((chunk) => 'raw_data' in chunk)).toBe(false)
  })
})

describe('captureProcess environment and paths', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'rea-root-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  test('merges overrides over the inherited environment, removes null ones and sets the run token', async () => {
    process.env['REA_TEST_INHERITED'] = 'inherited-value-7f3a'
    process.env['REA_TEST_REMOVED'] = 'present'
    try {
      const evidence = await captureProcess({
        executable: program('print-env.mjs'),
        arguments: ['REA_TEST_INHERITED', 'REA_TEST_REMOVED', 'APP_MODE', 'TERM', 'REA_RUN_TOKEN'],
        environment: { APP_MODE: 'test', REA_TEST_REMOVED: null },
        terminal: { columns: 200 },
      })
      const printed = JSON.parse(finalFrame(evidence).lines[0] ?? '') as Record<string, string | null>
      expect(printed).toMatchObject({
        REA_TEST_INHERITED: 'inherited-value-7f3a',
        REA_TEST_REMOVED: null,
        APP_MODE: 'test',
        TERM: 'xterm-256color',
      })
      expect(printed['REA_RUN_TOKEN']).toMatch(/^rea-[0-9a-f]{32}$/)
      // The program printed them, so the terminal holds them; no commitment may.
      const commitments = JSON.stringify(evidence.commitments)
      expect(commitments).not.toContain(printed['REA_RUN_TOKEN'])
      expect(commitments).not.toContain('inherited-value-7f3a')
      expect(Object.keys(evidence.commitments.comparison_contract.value.environment)).toEqual([
        'APP_MODE',
        'REA_TEST_REMOVED',
      ])
    } finally {
      delete process.env['REA_TEST_INHERITED']
      delete process.env['REA_TEST_REMOVED']
    }
  })

  test('resolves working_directory against the capture root and commits it relative to the root', async () => {
    const evidence = await captureProcess(
      { executable: program('print-cwd.mjs'), working_directory: '.', terminal: { columns: 200 } },
      { root },
    )
    expect(finalFrame(evidence).lines[0]).toBe(root)
    expect(evidence.commitments.comparison_contract.value.working_directory).toBe('.')
    expect(evidence.host.capture_root).toBe(root)
  })
})

describe('captureProcess frames', () => {
  test('takes a quiet frame for people when output pauses, and a final checkpoint', async () => {
    const evidence = await captureProcess({
      executable: 'bash',
      arguments: ['-c', 'echo first; sleep 0.6; echo second'],
    })
    const quiet = evidence.terminal.frames.filter((frame) => frame.trigger === 'quiet')
    expect(quiet.length).toBeGreaterThanOrEqual(1)
    expect(quiet[0]).toMatchObject({
      checkpoint: false,
      status: 'retained',
      lines: expect.arrayContaining(['first']) as string[],
    })
    expect(retained(quiet[0]).lines).not.toContain('second')
    expect(finalFrame(evidence).lines.slice(0, 2)).toEqual(['first', 'second'])
    // Frames and chunks share one journal: the quiet frame sits between the two outputs.
    const [first, second] = evidence.terminal.chunks
    expect(quiet[0]!.sequence).toBeGreaterThan(first!.sequence)
    expect(quiet[0]!.sequence).toBeLessThan(second!.sequence)
  })
})
