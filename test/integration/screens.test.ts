import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { captureProcess, compareCaptures, serializeEvidence, type Evidence } from '../../src/index.js'
import { program } from '../helpers/fixtures.js'
import { runCli } from '../helpers/run-cli.js'

/** random-draw.mjs: the same two screens every run, drawn in a random order and spelling. */
const drawing = (args: string[] = []) =>
  captureProcess({
    executable: program('random-draw.mjs'),
    arguments: args,
    events: [{ type: 'input', data: '\r', after: { screen: 'Ready' } }],
    timeout_ms: 60_000,
  })

let directory: string
let authority: Evidence
beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'rea-screens-'))
  authority = await drawing()
}, 60_000)
afterAll(() => rmSync(directory, { recursive: true, force: true }))

describe('comparing by screens', () => {
  test('a program that draws the same screens in a random order is equivalent by screens, 3 times out of 3', async () => {
    for (let run = 0; run < 3; run++) {
      const reconstruction = await drawing()
      const byScreens = compareCaptures(authority, reconstruction, { terminal: 'screens', timing: 'ignore' })
      expect(byScreens.verdict, JSON.stringify(byScreens.dimensions.terminal, null, 1)).toBe('equivalent')
      expect(byScreens.dimensions.terminal.notes).toEqual(
        expect.arrayContaining([expect.stringContaining('the normalized terminal output differs')]),
      )
      const byStream = compareCaptures(authority, reconstruction)
      expect(byStream.dimensions.terminal.outcome).toBe('different')
      expect(byStream.screens_equal).toBe(true)
    }
  })

  test('drawn in reading order with one spelling, it is the same screen', async () => {
    const ordered = await drawing(['--order', 'fixed'])
    expect(compareCaptures(authority, ordered, { terminal: 'screens', timing: 'ignore' }).verdict).toBe(
      'equivalent',
    )
  })

  test('a changed colour differs by screens, at the first character drawn in it, and gets no hint', async () => {
    const green = await drawing(['--title-colour', '2'])
    const comparison = compareCaptures(authority, green, { terminal: 'screens' })
    expect(comparison.verdict).toBe('different')
    expect(comparison.first_divergence).toMatchObject({
      field: 'terminal.frames.cells',
      // The title starts with a blank: its foreground colour does not show, so the first difference is the F.
      authority: '"F" bold fg 4',
      reconstruction: '"F" bold fg 2',
      location: { kind: 'terminal_frame', checkpoint: 0, trigger: 'before_event', row: 1, column: 2 },
    })
    expect(compareCaptures(authority, green).screens_equal).toBe(false)
  })

  test('the command line names --terminal screens, and compares by screens with it', async () => {
    const reconstruction = await drawing()
    const files = ['authority.json', 'reconstruction.json'].map((name) => path.join(directory, name))
    writeFileSync(files[0]!, serializeEvidence(authority))
    writeFileSync(files[1]!, serializeEvidence(reconstruction))
    const byStream = await runCli(['compare-process-captures', ...files])
    expect(byStream.code).toBe(1)
    expect(byStream.stdout).toContain(
      '  terminal        stream (the normalized output and the checkpoint frames as recorded)',
    )
    expect(byStream.stdout).toContain('Screens hint: every checkpoint screen is equal')
    expect(byStream.stdout).toContain('To compare what the screens show, use --terminal screens')
    // Only the terminal is looked at here: how fast the program ran on a loaded machine is left out.
    const byScreens = await runCli([
      'compare-process-captures',
      ...files,
      '--terminal',
      'screens',
      '--timing',
      'ignore',
    ])
    expect(byScreens.code, byScreens.stdout).toBe(0)
    expect(byScreens.stdout).toContain(
      '  terminal        screens (what every checkpoint screen shows, cell by cell)',
    )
    const json = await runCli(['compare-process-captures', ...files, '--terminal', 'screens', '--json'])
    expect(JSON.parse(json.stdout)).toMatchObject({
      terminal_level: 'screens',
      timing: { policy: 'tolerant' },
    })
    const bad = await runCli(['compare-process-captures', ...files, '--terminal', 'pixels'])
    expect(bad.code).toBe(3)
    expect(bad.stderr).toContain('--terminal must be one of stream, screens: got "pixels"')
  })
})
