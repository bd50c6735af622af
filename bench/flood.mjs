// Whole-process flood benchmark: the REA CLI with default limits vs a bare node-pty reader vs script(1).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { median, medianPairRatio } from './statistics.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')

export function runFloodBenchmark({ bytes = 50_000_000, rounds = 15 } = {}) {
  const floodCommand = `head -c ${bytes} /dev/zero | tr '\\0' a`
  const work = mkdtempSync(path.join(tmpdir(), 'rea-bench-flood-'))
  const scenario = path.join(work, 'scenario.json')
  writeFileSync(
    scenario,
    JSON.stringify({ executable: 'sh', arguments: ['-c', floodCommand], timeout_ms: 600_000 }),
  )
  const contenders = {
    'rea capture-process (default limits)': [
      process.execPath,
      [
        path.join(root, 'dist/cli/main.cjs'),
        'capture-process',
        scenario,
        '--json',
        '--output',
        path.join(work, 'capture.json'),
      ],
    ],
    'bare node-pty reader': [process.execPath, [path.join(here, 'bare-pty-reader.mjs'), floodCommand]],
    'script(1)': ['script', ['-qc', floodCommand, '/dev/null']],
  }
  const names = Object.keys(contenders)
  const times = Object.fromEntries(names.map((name) => [name, []]))
  for (let round = 0; round < rounds; round++) {
    // Alternate the contenders within each round so machine load affects all of them alike.
    for (const [name, [command, args]] of Object.entries(contenders)) {
      const started = performance.now()
      const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'ignore'], cwd: work })
      const elapsed = performance.now() - started
      if (result.status !== 0) {
        throw new Error(`${name} failed with status ${result.status}`)
      }
      times[name].push(elapsed)
    }
  }
  rmSync(work, { recursive: true, force: true })
  const rows = Object.entries(times).map(([name, values]) => ({
    name,
    median_ms: Math.round(median(values)),
    mb_per_s: Number((bytes / 1e6 / (median(values) / 1000)).toFixed(1)),
    runs_ms: values.map(Math.round),
  }))
  const rea = rows[0]
  const bare = rows[1]
  const script = rows[2]
  return {
    bytes,
    rounds,
    rows,
    ratios: {
      rea_vs_bare_node_pty_throughput: Number((bare.median_ms / rea.median_ms).toFixed(2)),
      // Throughput is the inverse of time: the pair ratio of bare to REA.
      rea_vs_bare_node_pty_pair_throughput: Number(
        medianPairRatio(times[names[1]], times[names[0]]).toFixed(2),
      ),
      rea_vs_script_throughput: Number((script.median_ms / rea.median_ms).toFixed(2)),
      bare_node_pty_vs_script_throughput: Number((script.median_ms / bare.median_ms).toFixed(2)),
    },
  }
}
