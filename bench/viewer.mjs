// The divergence page for two 8 MiB captures that differ in one line: how long REA takes to build it, how big
// it is next to the two Evidence files it shows, and how long headless Chromium takes to show the first
// checkpoint and to replay to the end, next to a baseline page that only loads the same bytes.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { renderDivergencePage } from '../dist/index.js'
import { chromiumUnavailable, openPage } from '../test/helpers/chromium.mjs'
import { captureOutput } from './compare.mjs'
import { median } from './statistics.mjs'

const RUNS = 3
const MIB = 1024 * 1024

/** Milliseconds until `expression` holds after navigation, plus what the page holds once it does. */
async function timeInBrowser(file, expression, afterwards) {
  const page = await openPage(pathToFileURL(file).href)
  try {
    const ms = await page.waitFor(expression, 120_000)
    const extra = afterwards === undefined ? {} : await afterwards(page)
    return { ms, errors: page.consoleErrors.length, requests: page.requests.length, ...extra }
  } finally {
    await page.close()
  }
}

export async function runViewerBenchmark(mib = 8) {
  const skipped = chromiumUnavailable()
  const directory = mkdtempSync(path.join(tmpdir(), 'rea-bench-viewer-'))
  try {
    const middle = (mib * MIB) / 64 / 2
    const a = await captureOutput(directory, mib, -1)
    const b = await captureOutput(directory, mib, middle)
    const buildMs = []
    let html = ''
    for (let run = 0; run < RUNS; run++) {
      const start = performance.now()
      html = renderDivergencePage({ authority: a.evidence, reconstruction: b.evidence })
      buildMs.push(performance.now() - start)
    }
    const pageFile = path.join(directory, 'page.html')
    writeFileSync(pageFile, html)
    // Baseline: a page that holds the same bytes and does nothing with them.
    const baselineFile = path.join(directory, 'baseline.html')
    const payload = html.slice(html.indexOf('<script type="application/json"'))
    writeFileSync(
      baselineFile,
      `<!doctype html><meta charset="utf-8"><body>${payload.slice(0, payload.indexOf('</script>') + 9)}<script>document.body.dataset.loaded = 'true'</script>`,
    )
    const diffMs = []
    for (let run = 0; run < RUNS; run++) {
      const start = performance.now()
      spawnSync('diff', ['-u', a.text, b.text], { stdio: 'ignore' })
      diffMs.push(performance.now() - start)
    }
    const result = {
      mib,
      evidence_bytes: statSync(a.file).size + statSync(b.file).size,
      page_bytes: statSync(pageFile).size,
      build_median_ms: Math.round(median(buildMs)),
      gnu_diff_median_ms: Math.round(median(diffMs)),
    }
    result.page_vs_evidence = Number((result.page_bytes / result.evidence_bytes).toFixed(2))
    if (skipped !== null) {
      return { ...result, browser_skipped: skipped }
    }
    const firstRender = []
    const baseline = []
    const replayEnd = []
    let dom
    for (let run = 0; run < RUNS; run++) {
      const shown = await timeInBrowser(
        pageFile,
        "document.body.dataset.reaRendered === 'true'",
        async (page) => ({
          elements: await page.evaluate("document.getElementsByTagName('*').length"),
          heap_mb: await page.evaluate('Math.round(performance.memory.usedJSHeapSize / 1048576)'),
          replay_ms: await (async () => {
            const start = performance.now()
            await page.click('#rea-replay-load')
            await page.evaluate(
              `(() => { const time = document.getElementById('rea-replay-time'); time.value = time.max; time.dispatchEvent(new Event('input')) })()`,
            )
            await page.waitFor(
              "[...document.querySelectorAll('#replay [data-side=reconstruction] .xterm-rows > div')].some((row) => row.textContent.includes('line 131071'))",
              120_000,
            )
            return performance.now() - start
          })(),
          elements_after_replay: await page.evaluate("document.getElementsByTagName('*').length"),
        }),
      )
      firstRender.push(shown.ms)
      replayEnd.push(shown.replay_ms)
      dom = {
        elements: shown.elements,
        elements_after_replay: shown.elements_after_replay,
        heap_mb: shown.heap_mb,
        errors: shown.errors,
        requests: shown.requests,
      }
      baseline.push((await timeInBrowser(baselineFile, "document.body.dataset.loaded === 'true'")).ms)
    }
    return {
      ...result,
      first_render_median_ms: Math.round(median(firstRender)),
      baseline_load_median_ms: Math.round(median(baseline)),
      replay_to_end_median_ms: Math.round(median(replayEnd)),
      ...dom,
    }
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}
