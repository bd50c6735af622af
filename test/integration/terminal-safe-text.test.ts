import { decode } from '@toon-format/toon'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { describeDifference, matchCapture, parseEvidenceText } from '../../src/front-end.js'
import {
  captureProcess,
  compareCaptures,
  renderDivergencePage,
  serializeEvidence,
  type Evidence,
  type ProcessScenarioInput,
} from '../../src/index.js'
import { rawControlCharacters } from '../helpers/control-characters.js'
import { program } from '../helpers/fixtures.js'
import { CLI, runCli } from '../helpers/run-cli.js'

const directory = mkdtempSync(path.join(tmpdir(), 'rea-safe-text-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const printing = (text: string, extra: Partial<ProcessScenarioInput> = {}): ProcessScenarioInput => ({
  executable: program('write-bytes.mjs'),
  arguments: ['0', Buffer.from(text).toString('hex')],
  ...extra,
})
/** Invisible characters a terminal acts on or hides: C1 controls, bidi controls, zero-width characters. */
const INVISIBLE = /[\u0080-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u

describe('the matchers’ actual and expected', () => {
  test('are the rendered checkpoint screens, never the escape sequences that drew them', async () => {
    const [authority, received] = await Promise.all([
      captureProcess(printing('one\r\n\x1b[?25lprogress 10%\r\x1b[2Kdone\r\n\x1b[1A\x1b[2Kok\r\n')),
      captureProcess(printing('one\r\n\x1b[?25lprogress 10%\r\x1b[2Kfailed\r\n')),
    ])
    const result = matchCapture({
      received,
      authority,
      testPath: path.join(directory, 'a.test.ts'),
      testName: 'prints',
      assertion: 0,
      updateMode: 'none',
      isNot: false,
      updateCommand: 'vitest -u',
      root: directory,
      color: false,
      timing: 'tolerant',
      terminal: 'stream',
    })
    expect(result.pass).toBe(false)
    for (const text of [result.actual!, result.expected!]) {
      expect(rawControlCharacters(text)).toEqual([])
    }
    expect(result.expected).toContain('── checkpoint 0 · final (80×24) ──\none\nok\n')
    expect(result.actual).toContain('── checkpoint 0 · final (80×24) ──\none\nfailed\n')
  })
})

describe('excerpts of a difference', () => {
  test('tell a carriage return from a printed backslash and r, in the document, the text and the page', async () => {
    const [real, literal] = await Promise.all([
      captureProcess(printing('a\rb!')),
      captureProcess(printing('a\\rb!')),
    ])
    const comparison = compareCaptures(real, literal)
    const difference = comparison.dimensions.terminal.differences[0]!
    // The document holds the text itself; JSON escapes it once.
    expect(difference.authority).toBe('a\rb!')
    expect(difference.reconstruction).toBe('a\\rb!')
    const text = describeDifference(difference)
    expect(text).toContain('authority "a\\rb!", reconstruction "a\\\\rb!"')
    const page = renderDivergencePage({ authority: real, reconstruction: literal, comparison })
    expect(page).toContain('authority &quot;a\\rb!&quot;, reconstruction &quot;a\\\\rb!&quot;')
  })
})

describe('TOON output', () => {
  /** A scenario whose output holds C1 and bidi controls and whose observed root holds a file named with a newline. */
  function awkwardScenario(): string {
    const root = path.join(directory, 'awkward')
    mkdirSync(path.join(root, 'state'), { recursive: true })
    writeFileSync(path.join(root, 'state', 'a\nb\u0085.txt'), 'x')
    writeFileSync(
      path.join(root, 'scenario.json'),
      JSON.stringify({
        ...printing('nel:\u0085 csi:\u009b31m bidi:\u202eabc zw:a\u200bb\r\n'),
        filesystem_observation_paths: ['./state'],
      }),
    )
    return root
  }

  test('escapes C1, DEL and invisible format characters and stays valid TOON (decodes to the same data)', async () => {
    const root = awkwardScenario()
    const toon = await runCli(['capture-process', 'scenario.json', '--no-progress'], { cwd: root })
    expect(toon.code, toon.stderr).toBe(0)
    expect(rawControlCharacters(toon.stdout)).toEqual([])
    expect(INVISIBLE.test(toon.stdout)).toBe(false)
    const evidence = parseEvidenceText(JSON.stringify(decode(toon.stdout)), 'decoded TOON')
    expect(evidence.terminal.chunks.map((chunk) => chunk.data).join('')).toContain('bidi:\u202eabc')
    expect(Object.keys(evidence.normalized_result.files_before ?? {})).toContain('root_0:a\nb\u0085.txt')

    writeFileSync(path.join(root, 'capture.json'), serializeEvidence(evidence))
    const compared = await runCli(
      ['compare-process-captures', 'capture.json', 'capture.json', '--format', 'toon'],
      { cwd: root },
    )
    expect(compared.code, compared.stderr).toBe(0)
    expect(rawControlCharacters(compared.stdout)).toEqual([])
  })

  test('a file name with a newline cannot fake a line of the text output', async () => {
    const root = awkwardScenario()
    const first = await runCli(['capture-process', 'scenario.json', '--json', '--no-progress'], { cwd: root })
    writeFileSync(path.join(root, 'one.json'), first.stdout)
    rmSync(path.join(root, 'state', 'a\nb\u0085.txt'))
    const second = await runCli(['capture-process', 'scenario.json', '--json', '--no-progress'], {
      cwd: root,
    })
    writeFileSync(path.join(root, 'two.json'), second.stdout)
    const text = await runCli(['compare-process-captures', 'one.json', 'two.json'], { cwd: root })
    expect(text.code).toBe(1)
    expect(text.stdout).toContain('"root_0:a\\nb\\u0085.txt"')
    expect(text.stdout.split('\n').some((line) => line.startsWith('b'))).toBe(false)
  })

  test('is refused on a terminal when it holds a character TOON cannot escape; --json is named', async () => {
    const root = path.join(directory, 'tag')
    mkdirSync(root, { recursive: true })
    writeFileSync(path.join(root, 'inner.json'), JSON.stringify(printing('tagged:\u{e0041}\r\n')))
    // The CLI runs in a real PTY, so its stdout is a terminal.
    const outer: Evidence = await captureProcess({
      executable: process.execPath,
      arguments: [CLI, 'capture-process', 'inner.json', '--no-progress'],
      working_directory: root,
      terminal: { columns: 200, rows: 40 },
      timeout_ms: 60_000,
    })
    const screen = outer.terminal.chunks.map((chunk) => chunk.data).join('')
    expect(outer.exit.code).toBe(74)
    expect(screen).toContain('The TOON document was not printed: it holds an invisible character TOON has')
    expect(screen).toContain('U+E0041 at terminal.chunks')
    expect(screen).toContain('Use --json')
    expect(screen).toMatch(/It was saved as JSON to \S+capture\.json/)
    expect(screen).not.toContain('\u{e0041}')
  })
})
