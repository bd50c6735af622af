// Comparison: two real captures with N MiB of terminal output each that differ in one line, compared by
// REA (import of both files, then compareCaptures) vs GNU diff over the two normalized texts, at 1/2/4/8 MiB.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { captureProcess, compareCaptures, readEvidenceFile, serializeEvidence } from '../dist/index.js'
import { median } from './statistics.mjs'

const MIB = 1024 * 1024
const RUNS = 5

/** Prints `mib` MiB of numbered 64-byte lines; line `changed` says "changed" instead of "payload". */
const printer = (mib, changed) =>
  `const lines=${(mib * MIB) / 64};let out='';for(let i=0;i<lines;i++){out+=('line '+i+' '+(i===${changed}?'changed':'payload')).padEnd(63,'.')+'\\n';if(out.length>65536){process.stdout.write(out);out=''}}process.stdout.write(out)`

export async function captureOutput(directory, mib, changed) {
  const evidence = await captureProcess(
    {
      executable: process.execPath,
      arguments: ['-e', printer(mib, changed)],
      limits: { output_bytes: 2 * mib * MIB },
      timeout_ms: 120_000,
    },
    { root: directory },
  )
  const file = path.join(directory, `${changed}.json`)
  writeFileSync(file, serializeEvidence(evidence))
  const text = path.join(directory, `${changed}.txt`)
  writeFileSync(text, evidence.terminal.chunks.map((chunk) => chunk.data).join(''))
  return { evidence, file, text }
}

export async function runCompareBenchmark(sizes = [1, 2, 4, 8]) {
  const rows = []
  for (const mib of sizes) {
    const directory = mkdtempSync(path.join(tmpdir(), 'rea-bench-compare-'))
    try {
      const middle = (mib * MIB) / 64 / 2
      const a = await captureOutput(directory, mib, -1)
      const b = await captureOutput(directory, mib, middle)
      const compareMs = []
      const fullMs = []
      const diffMs = []
      let verdict
      for (let run = 0; run < RUNS; run++) {
        let start = performance.now()
        verdict = compareCaptures(a.evidence, b.evidence).verdict
        compareMs.push(performance.now() - start)
        start = performance.now()
        const [x, y] = await Promise.all([readEvidenceFile(a.file), readEvidenceFile(b.file)])
        compareCaptures(x, y)
        fullMs.push(performance.now() - start)
        start = performance.now()
        spawnSync('diff', ['-u', a.text, b.text], { stdio: 'ignore' })
        diffMs.push(performance.now() - start)
      }
      const row = {
        mib,
        verdict,
        output_bytes: a.evidence.truncation_details.raw_terminal.retained_bytes,
        chunks: a.evidence.terminal.chunks.length,
        compare_median_ms: Math.round(median(compareMs)),
        import_and_compare_median_ms: Math.round(median(fullMs)),
        gnu_diff_median_ms: Math.round(median(diffMs)),
      }
      row.import_and_compare_vs_diff = Number(
        (row.import_and_compare_median_ms / row.gnu_diff_median_ms).toFixed(1),
      )
      rows.push(row)
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
  }
  return { runs: RUNS, rows }
}
