// `rea export svg` next to `rea export asciicast` of the same capture, in alternating pairs in the same run: both
// start the CLI, read and validate the Evidence and write a file, so the ratio is what drawing the screen costs.
// Two moments: the final screen (its frame redrawn) and the screen at the last chunk (the whole output replayed).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { captureProcess, serializeEvidence } from '../dist/index.js'
import { median, medianPairRatio } from './statistics.mjs'

const PAIRS = 15
const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'main.cjs')

function timeCli(args) {
  const start = performance.now()
  const result = spawnSync(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
  const ms = performance.now() - start
  if (result.status !== 0) {
    throw new Error(`rea ${args.join(' ')} exited ${result.status}: ${result.stderr}`)
  }
  return ms
}

export async function runExportSvgBenchmark() {
  const directory = mkdtempSync(path.join(tmpdir(), 'rea-bench-export-svg-'))
  try {
    // A full 120x40 screen of coloured text with wide glyphs, redrawn 50 times: 2,000 lines of output.
    const line = String.raw`\033[1;3%dm%04d\033[0m \033[4%dm colour \033[0m 漢字テスト ${'x'.repeat(60)}\n`
    const evidence = await captureProcess({
      executable: '/bin/sh',
      arguments: [
        '-c',
        `i=0; while [ $i -lt 2000 ]; do printf '${line}' $((i % 8)) $i $((i % 8)); i=$((i+1)); done`,
      ],
      terminal: { columns: 120, rows: 40 },
      timeout_ms: 60_000,
    })
    const file = path.join(directory, 'capture.json')
    writeFileSync(file, serializeEvidence(evidence))
    const lastChunk = evidence.terminal.chunks.at(-1)?.at_ms ?? 0
    const runs = { asciicast: [], final: [], replayed: [] }
    for (let pair = 0; pair < PAIRS; pair++) {
      runs.asciicast.push(timeCli(['export', 'asciicast', file, '-o', path.join(directory, 'a.cast')]))
      runs.final.push(timeCli(['export', 'svg', file, '-o', path.join(directory, 'final.svg')]))
      runs.replayed.push(
        timeCli([
          'export',
          'svg',
          file,
          '--at',
          String(lastChunk),
          '-o',
          path.join(directory, 'replayed.svg'),
        ]),
      )
    }
    return {
      pairs: PAIRS,
      evidence_bytes: statSync(file).size,
      chunks: evidence.terminal.chunks.length,
      svg_bytes: statSync(path.join(directory, 'final.svg')).size,
      asciicast_median_ms: Math.round(median(runs.asciicast)),
      final_median_ms: Math.round(median(runs.final)),
      replayed_median_ms: Math.round(median(runs.replayed)),
      final_ratio: Number(medianPairRatio(runs.final, runs.asciicast).toFixed(2)),
      replayed_ratio: Number(medianPairRatio(runs.replayed, runs.asciicast).toFixed(2)),
    }
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}
