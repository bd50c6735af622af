import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { captureProcess, serializeEvidence, type Evidence } from '../../src/index.js'
import { chromiumUnavailable, openPage } from '../helpers/chromium.mjs'
import { countPixels, decodePng } from '../helpers/png.mjs'
import { runCli } from '../helpers/run-cli.js'

const unavailable = chromiumUnavailable()
if (unavailable !== null) {
  console.warn(`skipping the headless Chromium checks of rea export svg: ${unavailable}`)
}

// Bold red, a green background, two wide glyphs, underlined italics; then a line that comes after the input.
const SCRIPT = [
  String.raw`printf '\033[1;31mRed\033[0m \033[42mgreen\033[0m 漢字 end\n\033[3;4munder\033[0m\n'`,
  'read line',
  String.raw`printf 'after %s\n' "$line"`,
].join('; ')

const directory = mkdtempSync(path.join(tmpdir(), 'rea-export-svg-'))
const evidenceFile = path.join(directory, 'picture.capture.json')
let evidence: Evidence
beforeAll(async () => {
  evidence = await captureProcess({
    executable: '/bin/sh',
    arguments: ['-c', SCRIPT],
    terminal: { columns: 40, rows: 6 },
    events: [{ type: 'input', data: 'go\r', after: { screen: 'under' } }],
    timeout_ms: 20_000,
  })
  writeFileSync(evidenceFile, serializeEvidence(evidence))
})
afterAll(() => rmSync(directory, { recursive: true, force: true }))

function finalFrame() {
  const frame = evidence.terminal.frames.findLast((each) => each.trigger === 'final')
  if (frame?.status !== 'retained') {
    throw new Error('the capture has no rendered final frame')
  }
  return frame
}

async function exportSvg(name: string, ...options: string[]): Promise<string> {
  const file = path.join(directory, name)
  const result = await runCli(['export', 'svg', evidenceFile, ...options, '-o', file])
  expect(result.code, result.stderr).toBe(0)
  return file
}

/** Each row's text as the browser reads it, by row (from each <text>'s y). */
const ROW_TEXTS = `[...document.querySelectorAll('text')].map((text) => [Math.round((Number(text.getAttribute('y')) - 13) / 17), text.textContent])`

describe('rea export svg', () => {
  test.skipIf(unavailable !== null)(
    'draws the final frame: each row one <text> reading as the frame’s line, glyphs at their cells, colours and cursor',
    async () => {
      const frame = finalFrame()
      const file = await exportSvg('final.svg')
      const page = await openPage(pathToFileURL(file).href, { width: 400, height: 140 })
      try {
        const rows = await page.evaluate<[number, string][]>(ROW_TEXTS)
        const lines = frame.lines.map((line, row) => [row, line] as const).filter(([, line]) => line !== '')
        expect(rows).toEqual(lines)
        expect(frame.lines[0]).toBe('Red green 漢字 end')
        // The space after the two wide glyphs sits at column 14 (8.4 px a cell), as in the terminal.
        const spaceX = await page.evaluate<number>(
          `document.querySelector('text').getStartPositionOfChar('Red green 漢字'.length).x`,
        )
        expect(spaceX).toBeCloseTo(14 * 8.4, 1)
        const redFill = await page.evaluate<string>(
          `getComputedStyle([...document.querySelectorAll('tspan')].find((each) => each.textContent.startsWith('Red'))).fill`,
        )
        expect(redFill).toBe('rgb(239, 41, 41)')
        const cursor = await page.evaluate<[number, number]>(
          `(() => { const rect = document.querySelector('.rea-cursor'); return [Number(rect.getAttribute('y')) / 17, Math.round(Number(rect.getAttribute('x')) / 8.4)] })()`,
        )
        expect(cursor).toEqual([frame.cursor.row, frame.cursor.column])
        const shot = path.join(directory, 'final.png')
        await page.screenshot(shot)
        const png = decodePng(shot)
        // "green" (columns 4-8 of row 0) on xterm's green; nothing green under "Red".
        const green = (r: number, g: number, b: number): boolean => g > 120 && r < 120 && b < 60
        expect(
          countPixels(png, { left: 4 * 8.4 + 1, top: 1, width: 5 * 8.4 - 2, height: 15 }, green),
        ).toBeGreaterThan(200)
        expect(countPixels(png, { left: 0, top: 0, width: 3 * 8.4, height: 17 }, green)).toBe(0)
        expect(page.consoleErrors).toEqual([])
      } finally {
        await page.close()
      }
    },
  )

  test('is the same bytes every time, and draws earlier moments from the output written by then', async () => {
    const first = readFileSync(await exportSvg('a.svg'), 'utf8')
    const second = readFileSync(await exportSvg('b.svg'), 'utf8')
    expect(second).toBe(first)
    expect(first).toContain('after go')
    // The title names the command, whose script holds every word: look at the screen only.
    const screen = (file: string): string => readFileSync(file, 'utf8').replace(/<title>.*<\/title>/, '')
    const before = screen(await exportSvg('before.svg', '--at', 'event', '0'))
    expect(before).toContain('>under<')
    expect(before).not.toContain('after')
    const atLaunch = screen(await exportSvg('launch.svg', '--at', '0'))
    expect(atLaunch).not.toContain('Red')
    const atExit = screen(await exportSvg('exit.svg', '--at', String(evidence.exit.at_ms)))
    expect(atExit).toBe(first.replace(/<title>.*<\/title>/, ''))
  })

  test.each([
    [['--at', 'last'], /--at must be final, event <n>/],
    [['--at', 'event', '7'], /the scenario has 1 event/],
    [['--at', '1.5'], /--at must be final/],
  ])('refuses %j as a usage error, exit 3', async (options, message) => {
    const result = await runCli([
      'export',
      'svg',
      evidenceFile,
      ...options,
      '-o',
      path.join(directory, 'x.svg'),
    ])
    expect(result.code).toBe(3)
    expect(result.stderr).toMatch(message)
    expect(result.stderr).toContain('Usage: rea export')
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })

  test('refuses --at for an asciicast export', async () => {
    const result = await runCli(['export', 'asciicast', evidenceFile, '--at', 'event', '0'])
    expect(result.code).toBe(3)
    expect(result.stderr).toContain('--at draws one screen')
  })
})
