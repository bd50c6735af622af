import { spawn } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { captureProcess, renderDivergencePage, serializeEvidence } from '../../src/index.js'
import {
  chromiumUnavailable,
  openPage,
  openScreenshotBrowser,
  type BrowserPage,
} from '../helpers/chromium.mjs'
import { countPixels, decodePng } from '../helpers/png.mjs'
import { program, REPO_ROOT } from '../helpers/fixtures.js'
import { runCli } from '../helpers/run-cli.js'
import { captureDemo, DEMO_SECRET } from '../helpers/viewer-demo.js'

const unavailable = chromiumUnavailable()
if (unavailable !== null) {
  console.warn(`skipping the headless Chromium checks of the divergence page: ${unavailable}`)
}

const directory = mkdtempSync(path.join(tmpdir(), 'rea-viewer-'))
const pageFile = path.join(directory, 'divergence.html')
beforeAll(async () => {
  const [authority, reconstruction] = await Promise.all([captureDemo(), captureDemo(true)])
  writeFileSync(path.join(directory, 'authority.json'), serializeEvidence(authority))
  writeFileSync(path.join(directory, 'reconstruction.json'), serializeEvidence(reconstruction))
  const result = await runCli(['view', 'authority.json', 'reconstruction.json', '--output', pageFile], {
    cwd: directory,
  })
  expect(result.code, result.stderr).toBe(0)
})
afterAll(() => rmSync(directory, { recursive: true, force: true }))

/**
 * Opens the page in a fresh browser for one test (every test must end the processes it started), and checks
 * afterwards that it requested nothing but itself and logged no error.
 */
async function withPage(check: (page: BrowserPage) => Promise<void>): Promise<void> {
  const page = await openPage(pathToFileURL(pageFile).href)
  try {
    await check(page)
    expect(page.requests).toEqual([pathToFileURL(pageFile).href])
    expect(page.consoleErrors).toEqual([])
  } finally {
    await page.close()
  }
}

/**
 * The niceness of the busy loops and of the browser they compete with: among themselves they share the cores as
 * at normal priority, while the test files running beside this one (timing-sensitive captures) come first.
 */
const BUSY_NICENESS = 19

/** Browsers taking their screenshot side by side; 20 is a multiple of it. */
const SHOTS_AT_ONCE = 4

/** A busy loop per core, as on a loaded CI machine; `stop` ends them (by PID) and waits for their exit. */
function occupyEveryCore(): { stop(): Promise<void> } {
  const loops = cpus().map(() =>
    spawn('nice', ['-n', String(BUSY_NICENESS), process.execPath, '-e', 'for (;;) {}'], { stdio: 'ignore' }),
  )
  return {
    stop: async () => {
      await Promise.all(
        loops.map((loop) => {
          const exited = new Promise((resolve) => loop.once('exit', resolve))
          loop.kill('SIGKILL')
          return exited
        }),
      )
    },
  }
}

interface Box {
  readonly left: number
  readonly top: number
  readonly width: number
  readonly height: number
}

const widen = (box: Box, by: number): Box => ({
  left: box.left - by,
  top: box.top - by,
  width: box.width + 2 * by,
  height: box.height + 2 * by,
})
/** The first difference's outline (#ffd600). */
const isOutlineYellow = (r: number, g: number, b: number): boolean => r > 220 && g > 180 && b < 90

/** Both screens and the caption as the complete page lays them out, in CSS pixels of a 1400 × 1000 viewport. */
async function withLayout(): Promise<{ authority: Box; reconstruction: Box; caption: Box }> {
  const page = await openPage(pathToFileURL(pageFile).href)
  try {
    await page.waitFor("document.body.dataset.reaRendered === 'true'")
    return await page.evaluate(`(() => {
      const box = (element) => { const r = element.getBoundingClientRect(); return { left: r.left, top: r.top, width: r.width, height: r.height } }
      const screen = (side) => box(document.querySelector('#screens [data-side=' + side + '] .xterm-screen'))
      return { authority: screen('authority'), reconstruction: screen('reconstruction'), caption: box(document.getElementById('rea-checkpoint-detail')) }
    })()`)
  } finally {
    await page.close()
  }
}

/** Text of the rendered rows of a side's terminal in a section. */
const rowsText = (section: string, side: string) =>
  `[...document.querySelectorAll('#${section} [data-side=${side}] .xterm-rows > div')].map((row) => row.textContent.replace(/\\u00a0/g, ' ').trimEnd())`

describe.skipIf(unavailable !== null)('the divergence page in headless Chromium', () => {
  test('shows both screens at the first divergent checkpoint with the differing cells outlined', () =>
    withPage(async (browser) => {
      await browser.waitFor("document.body.dataset.reaRendered === 'true'")
      expect(await browser.evaluate('document.body.dataset.reaCheckpoint')).toBe('1')
      const authorityRows = await browser.evaluate<string[]>(rowsText('screens', 'authority'))
      const reconstructionRows = await browser.evaluate<string[]>(rowsText('screens', 'reconstruction'))
      expect(authorityRows.slice(0, 4)).toEqual(['REA viewer demo', 'Name: Ada', 'Hello, Ada!', 'Secret:'])
      expect(reconstructionRows.slice(0, 4)).toEqual([
        'REA viewer demo',
        'Name: Ada',
        'Good day, Ada!',
        'Secret:',
      ])
      // In colour: the program greets in yellow (palette 3) in one run and green (2) in the other.
      expect(
        await browser.evaluate(
          "!!document.querySelector('#screens [data-side=authority] .xterm-rows .xterm-fg-3')",
        ),
      ).toBe(true)
      expect(
        await browser.evaluate(
          "!!document.querySelector('#screens [data-side=reconstruction] .xterm-rows .xterm-fg-2')",
        ),
      ).toBe(true)

      // One outlined run per side, on row 3 from column 1, marked as the comparison's located difference, and
      // drawn over that row of the rendered terminal.
      const outlines = await browser.evaluate<
        { side: string; row: string; column: string; width: string; first: boolean; onRow: boolean }[]
      >(`
      [...document.querySelectorAll('#screens .rea-diff-cell')].map((box) => {
        const pane = box.closest('.pane')
        const row = pane.querySelectorAll('.xterm-rows > div')[Number(box.dataset.row) - 1].getBoundingClientRect()
        const outline = box.getBoundingClientRect()
        const middle = outline.top + outline.height / 2
        return { side: pane.dataset.side, row: box.dataset.row, column: box.dataset.column, width: box.dataset.width,
          first: box.classList.contains('rea-first'), onRow: middle > row.top && middle < row.bottom }
      })`)
      expect(outlines).toEqual([
        { side: 'authority', row: '3', column: '1', width: '14', first: true, onRow: true },
        { side: 'reconstruction', row: '3', column: '1', width: '14', first: true, onRow: true },
      ])

      const shot = path.join(directory, 'viewer.png')
      await browser.screenshot(shot)
      expect(statSync(shot).size).toBeGreaterThan(10_000)
      if (process.env['REA_UPDATE_SCREENSHOT'] === '1') {
        copyFileSync(shot, path.join(REPO_ROOT, 'docs/viewer.png'))
      }
    }))

  test(
    'draws the outlines and their caption once the screens are drawn: 20 screenshots with every core busy',
    { timeout: 300_000 },
    async () => {
      // Where the screens and the caption are once the page is complete, read from the page itself.
      const layout = await withLayout()
      const busy = occupyEveryCore()
      // One browser, a new tab per shot, each taken at the page's load event as `chromium --headless
      // --screenshot` takes it (see openScreenshotBrowser: the race this test guards showed as often this way).
      const browser = openScreenshotBrowser({ niceness: BUSY_NICENESS })
      const seen: string[] = []
      const shoot = async (shot: number): Promise<string> => {
        const file = path.join(directory, `shot-${shot}.png`)
        await browser.screenshotOnLoad(pathToFileURL(pageFile).href, file)
        const png = decodePng(file)
        const outlined = (box: Box) => countPixels(png, widen(box, 6), isOutlineYellow) > 40
        const written = (box: Box) => countPixels(png, box, (r, g, b) => r < 110 && g < 110 && b < 110) > 20
        return `${shot}: authority ${outlined(layout.authority)}, reconstruction ${outlined(layout.reconstruction)}, caption ${written(layout.caption)}`
      }
      try {
        // Four pages at a time: each still shares the cores with the busy loops (and the three others), so every
        // page loads on a machine at least as loaded as one page alone would.
        for (let first = 1; first <= 20; first += SHOTS_AT_ONCE) {
          const batch = Array.from({ length: SHOTS_AT_ONCE }, (_, offset) => shoot(first + offset))
          seen.push(...(await Promise.all(batch)))
        }
      } finally {
        await browser.close()
        await busy.stop()
      }
      expect(seen).toEqual(
        Array.from(
          { length: 20 },
          (_, index) => `${index + 1}: authority true, reconstruction true, caption true`,
        ),
      )
    },
  )

  test('marks blanks written on one side, and says when the screens only spell the same look differently', async () => {
    const printing = (text: string) =>
      captureProcess({
        executable: program('write-bytes.mjs'),
        arguments: ['0', Buffer.from(text).toString('hex')],
      })
    // The same look in two spellings (green on red, once as red on green in inverse video; an RGB red would be
    // another colour, as in the screens comparison), and three spaces written on one side.
    const [authority, reconstruction] = await Promise.all([
      printing('\x1b[31;42;7mred\x1b[0m ok'),
      printing('\x1b[32;41mred\x1b[0m ok   '),
    ])
    const file = path.join(directory, 'spellings.html')
    writeFileSync(file, renderDivergencePage({ authority, reconstruction }))
    const page = await openPage(pathToFileURL(file).href)
    try {
      await page.waitFor("document.body.dataset.reaRendered === 'true'")
      const marks = await page.evaluate<string[]>(
        `[...document.querySelectorAll('#screens [data-side=authority] .rea-diff-cell')].map((box) => box.className + ' ' + box.dataset.column + '+' + box.dataset.width)`,
      )
      expect(marks.sort()).toEqual([
        // Writing the spaces also moved the cursor: the comparison's located difference is there.
        'rea-diff-cell rea-diff-blank rea-first 7+3',
        'rea-diff-cell rea-diff-spelling 1+3',
      ])
      const caption = await page.evaluate<string>(
        "document.getElementById('rea-checkpoint-detail').textContent",
      )
      expect(caption).toContain('1 run of blank cells differ (spaces written on one side only')
      expect(caption).toContain(
        'the same on screen, only the escape sequences differ: authority "\\e[31;42;7mred',
      )
      expect(caption).toContain('reconstruction "\\e[32;41mred')
      expect(caption).not.toMatch(/runs? of cells differ/)
      const headline = await page.evaluate<string>("document.getElementById('rea-headline').textContent")
      expect(headline).toMatch(
        /^Checkpoint 0 \(final screen\), row 1, column 7: the cursor is elsewhere; in the output stream from byte 3 \(line 1, column 4\)$/,
      )
      expect(page.consoleErrors).toEqual([])
    } finally {
      await page.close()
    }
  })

  test('steps to a checkpoint where the screens agree and outlines nothing', () =>
    withPage(async (browser) => {
      await browser.waitFor("document.body.dataset.reaRendered === 'true'")
      await browser.click('#rea-checkpoint-list button[data-index="0"]')
      await browser.waitFor(
        "document.body.dataset.reaRendered === 'true' && document.body.dataset.reaCheckpoint === '0'",
      )
      expect(await browser.evaluate("document.querySelectorAll('#screens .rea-diff-cell').length")).toBe(0)
      expect((await browser.evaluate<string[]>(rowsText('screens', 'reconstruction'))).slice(0, 2)).toEqual([
        'REA viewer demo',
        'Name:',
      ])
    }))

  test('replays each side to the end, secret masked', () =>
    withPage(async (browser) => {
      await browser.click('#rea-replay-load')
      await browser.waitFor("document.body.dataset.reaReplay === 'ready'")
      await browser.evaluate(`(() => { const time = document.getElementById('rea-replay-time'); time.value = time.max;
      time.dispatchEvent(new Event('input')) })()`)
      await browser.waitFor(`${rowsText('replay', 'reconstruction')}.includes('interrupted')`)
      const rows = await browser.evaluate<string[]>(rowsText('replay', 'reconstruction'))
      expect(rows).toContain('Secret: *********')
      expect(rows).toContain('resized to 72x14')
      expect(
        await browser.evaluate(
          "document.querySelectorAll('#replay [data-side=authority] ol.events li').length",
        ),
      ).toBeGreaterThan(5)
    }))
})

test('the page never holds the sensitive value', () => {
  const html = readFileSync(pageFile, 'utf8')
  expect(html).not.toContain(DEMO_SECRET)
  expect(html).toContain('*'.repeat(DEMO_SECRET.length))
})
