// Whole-process start-up: `rea --version` and `rea capture-process` of `true` against `node -e 0`, alternating
// in pairs so that drift in machine load affects both alike; the ratio is taken pair by pair.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { median, medianPairRatio } from './statistics.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const cli = path.join(root, 'dist/cli/main.cjs')

function timeOnce(args, cwd) {
  const started = performance.now()
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd })
  const elapsed = performance.now() - started
  if (result.status !== 0) {
    throw new Error(`node ${args.join(' ')} exited with ${result.status}: ${result.stderr}`)
  }
  return elapsed
}

function pairs(args, cwd, count) {
  const rea = []
  const node = []
  timeOnce(args, cwd)
  timeOnce(['-e', '0'], cwd)
  for (let index = 0; index < count; index++) {
    const a = timeOnce(args, cwd)
    const b = timeOnce(['-e', '0'], cwd)
    rea.push(a)
    node.push(b)
  }
  return {
    rea_median_ms: Math.round(median(rea)),
    node_median_ms: Math.round(median(node)),
    ratio: Number(medianPairRatio(rea, node).toFixed(2)),
  }
}

export function runStartupBenchmark({ count = 15 } = {}) {
  const work = mkdtempSync(path.join(tmpdir(), 'rea-bench-startup-'))
  try {
    writeFileSync(path.join(work, 'true.json'), JSON.stringify({ executable: 'true' }))
    return {
      pairs: count,
      version: pairs([cli, '--version'], work, count),
      capture_true: pairs(
        [cli, 'capture-process', 'true.json', '--json', '--output', 'capture.json', '--no-progress'],
        work,
        count,
      ),
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
