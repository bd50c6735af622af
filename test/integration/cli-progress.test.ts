import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  captureProcess,
  parseEvidenceText,
  type Evidence,
  type ProcessScenarioInput,
} from '../../src/front-end.js'
import { program } from '../helpers/fixtures.js'
import { CLI, runCli } from '../helpers/run-cli.js'

/**
 * REA's progress as a person sees it, captured by REA: the outer capture runs `node dist/cli/main.cjs
 * capture-process …` in a real PTY, so the inner REA's stderr is a terminal, and the outer Evidence holds exactly
 * what that terminal was shown.
 */

let directory: string
beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'rea-cli-progress-'))
  // The inner capture: a prompt that shows up late, and an answer that waits for it on the screen.
  writeFileSync(
    path.join(directory, 'inner.json'),
    JSON.stringify({
      executable: process.execPath,
      arguments: [program('delayed-prompt.mjs'), '--delay', '600'],
      events: [{ type: 'input', data: 'Ada\r', after: { screen: 'Name?' } }],
      timeout_ms: 20_000,
    }),
  )
})
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const output = (evidence: Evidence): string => evidence.terminal.chunks.map((chunk) => chunk.data).join('')

/** Captures `rea capture-process inner.json -o <output> <flags>` with the outer REA; the inner's stdout goes to a file. */
async function captureRea(flags: string[], events: ProcessScenarioInput['events'] = []): Promise<Evidence> {
  const written = path.join(directory, `inner-${flags.join('') || 'auto'}.json`)
  const evidence = await captureProcess(
    {
      executable: process.execPath,
      arguments: [CLI, 'capture-process', 'inner.json', '--json', '-o', written, ...flags],
      working_directory: directory,
      // NO_COLOR and a terminal type a person has: the inner REA sees an ordinary terminal.
      environment: { TERM: 'xterm-256color' },
      // Wide enough for the whole status line; a narrower one cuts the condition's end.
      terminal: { columns: 120 },
      events,
      timeout_ms: 60_000,
    },
    { root: directory },
  )
  expect(evidence.exit, output(evidence)).toMatchObject({
    code: 0,
    reason: 'exited',
  })
  // The inner capture ran and wrote its Evidence where it was told.
  expect(parseEvidenceText(readFileSync(written, 'utf8'), written).exit).toMatchObject({ code: 0 })
  return evidence
}

/** The rows of the frame taken at `trigger`; the test fails if it was not rendered. */
function framed(evidence: Evidence, trigger: 'before_event' | 'final'): readonly string[] {
  const frame = evidence.terminal.frames.find((each) => each.trigger === trigger)
  if (frame?.status !== 'retained') {
    throw new Error(`no ${trigger} frame was rendered`)
  }
  return frame.lines
}

describe('rea capture-process progress on a terminal', () => {
  test('is one status line, redrawn in place, naming the command, the time and the wait; erased at the end', async () => {
    // The outer event waits until the inner REA's status line shows the wait it is in; its checkpoint frame then
    // holds that line as the terminal showed it. The event makes the terminal narrower than the line drawn, which
    // the terminal rewraps onto two rows: the status line must leave neither behind.
    const evidence = await captureRea(
      [],
      [{ type: 'resize', columns: 110, rows: 24, after: { screen: 'waits for screen "Name?"' } }],
    )
    expect(evidence.interactions[0]).toMatchObject({
      outcome: 'dispatched',
      wait: { met_at_ms: expect.any(Number) },
    })
    const shown = framed(evidence, 'before_event').filter((line) => line !== '')
    expect(shown).toHaveLength(1)
    expect(shown[0]).toMatch(
      /^rea ▸ .*prompt\.mjs --delay 600 · \d+\.\d s · \d+ B output · event 0 \(input\) waits for screen "Name\?"$/,
    )
    const text = output(evidence)
    // Drawn in place: every redraw starts at the start of the line and erases what is left below it.
    expect(text.split('\r').length).toBeGreaterThan(3)
    expect(text.endsWith('\r\u001b[J')).toBe(true)
    expect(text).not.toContain('\n')
    expect(text).not.toContain('rea_progress')
    // Nothing is left on the terminal: the line is erased, and the Evidence went to its file.
    expect(
      framed(evidence, 'final').filter((line) => line !== ''),
      text.slice(-600),
    ).toEqual([])
  })

  test('is the JSON lines with --progress json, and nothing with --no-progress', async () => {
    const json = await captureRea(['--progress', 'json'])
    const records = output(json)
      .split('\r\n')
      .filter((line) => line !== '')
      .map(
        (line) => (JSON.parse(line) as { rea_progress: { sequence: number; terminal?: true } }).rea_progress,
      )
    expect(records[0]).toMatchObject({ phase: 'prepare', total: null, sequence: 1 })
    expect(records.at(-1)).toMatchObject({ phase: 'cleanup', terminal: true })
    expect(output(json)).not.toContain('rea ▸')

    const none = await captureRea(['--no-progress'])
    expect(output(none)).toBe('')
  })
})

describe('rea capture-process progress through a pipe', () => {
  test('is the JSON lines, whatever --progress auto would draw on a terminal', async () => {
    const result = await runCli(['capture-process', 'inner.json', '--json', '-o', 'piped.json'], {
      cwd: directory,
    })
    expect(result.code, result.stderr).toBe(0)
    const lines = result.stderr.trim().split('\n')
    expect(lines.length).toBeGreaterThan(1)
    for (const line of lines) {
      expect(Object.keys(JSON.parse(line) as object)).toEqual(['rea_progress'])
    }
    expect(result.stderr).not.toContain('\r')
  })
})
