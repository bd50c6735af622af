// Peak memory of a whole `rea capture-process` against the size of its output: a 50 MB and a 500 MB flood,
// each run alternately, peak RSS read by GNU time (`/usr/bin/time -f %M`, the kernel's own accounting of the
// finished process). With default limits REA keeps 1 MiB of output and counts the rest, so the peak must not
// grow with the flood.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { median } from './statistics.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const TIME = '/usr/bin/time'

function peakKib(work, megabytes) {
  const scenario = path.join(work, `flood-${megabytes}.json`)
  writeFileSync(
    scenario,
    JSON.stringify({
      executable: 'sh',
      arguments: ['-c', `head -c ${megabytes * 1_000_000} /dev/zero | tr '\\0' a`],
      timeout_ms: 600_000,
    }),
  )
  const report = path.join(work, 'time.txt')
  const result = spawnSync(
    TIME,
    [
      '-f',
      '%M',
      '-o',
      report,
      process.execPath,
      path.join(root, 'dist/cli/main.cjs'),
      'capture-process',
      scenario,
      '--json',
      '--no-progress',
      '--output',
      path.join(work, 'capture.json'),
    ],
    { stdio: 'ignore' },
  )
  if (result.status !== 0) {
    throw new Error(`the ${megabytes} MB flood capture exited with ${result.status}`)
  }
  return Number(readFileSync(report, 'utf8').trim().split('\n').at(-1))
}

export function runFloodMemoryBenchmark({ rounds = 3 } = {}) {
  if (!existsSync(TIME)) {
    return { skipped: `${TIME} is not installed (Debian package "time")` }
  }
  const work = mkdtempSync(path.join(tmpdir(), 'rea-bench-memory-'))
  try {
    const small = []
    const large = []
    for (let round = 0; round < rounds; round++) {
      small.push(peakKib(work, 50))
      large.push(peakKib(work, 500))
    }
    return {
      rounds,
      peak_50mb_mb: Number((median(small) / 1024).toFixed(1)),
      peak_500mb_mb: Number((median(large) / 1024).toFixed(1)),
      growth_mb: Number(((median(large) - median(small)) / 1024).toFixed(1)),
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
