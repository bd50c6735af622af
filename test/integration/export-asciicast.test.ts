import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { exportAsciicast, readJournal, serializeEvidence, type Evidence } from '../../src/index.js'
import { asciinemaCat, asciinemaUnavailable } from '../helpers/asciinema.js'
import { runCli } from '../helpers/run-cli.js'
import { captureDemo, DEMO_SECRET } from '../helpers/viewer-demo.js'

type CastLine = [number, string, string]

const unavailable = asciinemaUnavailable()
if (unavailable !== null) {
  console.warn(`skipping the asciinema player checks: ${unavailable}`)
}

const directory = mkdtempSync(path.join(tmpdir(), 'rea-export-'))
let evidence: Evidence
let evidenceFile: string
beforeAll(async () => {
  evidence = await captureDemo()
  evidenceFile = path.join(directory, 'demo.capture.json')
  writeFileSync(evidenceFile, serializeEvidence(evidence))
})
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const castLines = (text: string): CastLine[] =>
  text
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as CastLine)

const originalOutput = (chunks: Evidence['terminal']['chunks']): string =>
  chunks.map((chunk) => chunk.raw_data ?? chunk.data).join('')

describe('rea export asciicast', () => {
  test.skipIf(unavailable !== null)(
    'asciinema cat of the export reproduces the raw output exactly',
    async () => {
      const cast = path.join(directory, 'demo.cast')
      const result = await runCli(['export', 'asciicast', evidenceFile, '--output', cast])
      expect(result.code, result.stderr).toBe(0)
      expect(result.stdout).toBe('')
      const played = asciinemaCat(cast)
      expect(played.equals(Buffer.from(originalOutput(evidence.terminal.chunks)))).toBe(true)
      expect(played.toString()).toContain('Hello, Ada!')
    },
  )

  test('puts every marker, input and resize where its event was in the journal', () => {
    const lines = castLines(exportAsciicast(evidence))
    const journal = readJournal(evidence)
    // The output a player has shown when it reaches a marker is exactly the output recorded before the event.
    const outputBefore = (sequence: number): string =>
      originalOutput(evidence.terminal.chunks.filter((chunk) => chunk.sequence < sequence))
    const played = (index: number): string =>
      lines
        .slice(0, index)
        .filter(([, code]) => code === 'o')
        .map(([, , data]) => data)
        .join('')
    const checkpoints = evidence.terminal.frames.filter((frame) => frame.checkpoint)
    for (const [ordinal, frame] of checkpoints.entries()) {
      const index = lines.findIndex(
        ([, code, data]) => code === 'm' && data.startsWith(`checkpoint ${ordinal}:`),
      )
      expect(index, `marker of checkpoint ${ordinal}`).toBeGreaterThan(-1)
      expect(played(index)).toBe(outputBefore(frame.sequence))
      expect(lines[index]![0]).toBe(frame.at_ms / 1000)
    }
    const signal = evidence.interactions.find((interaction) => interaction.type === 'signal')!
    const signalIndex = lines.findIndex(([, code, data]) => code === 'm' && data.startsWith('signal SIGINT'))
    expect(played(signalIndex)).toBe(outputBefore(signal.sequence))
    expect(lines.filter(([, code]) => code === 'r').map(([, , data]) => data)).toEqual(['72x14'])
    expect(lines.filter(([, code]) => code === 'i').map(([, , data]) => data)).toEqual([
      'Ada\r',
      '*'.repeat(DEMO_SECRET.length + 1),
    ])
    expect(lines.at(-1)).toEqual([expect.any(Number), 'm', 'checkpoint 5: final'])
    expect(lines.some(([, code, data]) => code === 'm' && data === 'exit code 130 (exited)')).toBe(true)
    expect(journal.length).toBeGreaterThan(lines.length - 1)
  })

  test('never writes the sensitive value, in either version', () => {
    for (const version of [2, 3] as const) {
      expect(exportAsciicast(evidence, { version })).not.toContain(DEMO_SECRET.slice(0, 6))
    }
  })

  test('v3 intervals add up to the v2 times and the exit status closes the recording', async () => {
    const result = await runCli(['export', 'asciicast', evidenceFile, '--cast-version', '3'])
    expect(result.code, result.stderr).toBe(0)
    const v3 = castLines(result.stdout)
    const v2 = castLines(exportAsciicast(evidence))
    let time = 0
    const absolute = v3.slice(0, -1).map(([interval, code, data]) => {
      time += interval
      return [Number(time.toFixed(3)), code, data]
    })
    expect(absolute).toEqual(v2)
    expect(v3.at(-1)?.slice(1)).toEqual(['x', '130'])
  })

  test.each([
    [['export', 'gif', 'x.json'], /the export format must be one of asciicast, svg: got "gif"/],
    [['export', 'asciicast', 'missing.json'], /missing\.json/],
    [['export', 'asciicast', 'x.json', '--cast-version', '4'], /--cast-version must be one of 2, 3: got "4"/],
    [['export', 'asciicast'], /Expected 2 arguments \(export format, evidence\.json\), got 1/],
  ])('rejects bad input with exit 3 and names the argument: %j', async (args, message) => {
    const result = await runCli(args, { cwd: directory })
    expect(result.code).toBe(3)
    expect(result.stderr).toMatch(message)
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })

  test('refuses to write the recording over the Evidence file', async () => {
    const result = await runCli(['export', 'asciicast', evidenceFile, '-o', evidenceFile])
    expect(result.code).toBe(3)
    expect(result.stderr).toContain('is the same file as the Evidence')
    expect(readFileSync(evidenceFile, 'utf8')).toBe(serializeEvidence(evidence))
  })
})
