// Whole-process start-up: `rea --version`, `rea capture-process --help` and `rea capture-process` of `true` against
// `node -e 0`, alternating in pairs so that drift in machine load affects both alike; the ratio is taken pair by
// pair. REA_BEFORE_CLI=<path to an older dist/cli/main.cjs> also alternates this build with that one.
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

function pairs(args, cwd, count, baseline = ['-e', '0']) {
  const rea = []
  const node = []
  timeOnce(args, cwd)
  timeOnce(baseline, cwd)
  for (let index = 0; index < count; index++) {
    const a = timeOnce(args, cwd)
    const b = timeOnce(baseline, cwd)
    rea.push(a)
    node.push(b)
  }
  return {
    rea_median_ms: Math.round(median(rea)),
    node_median_ms: Math.round(median(node)),
    ratio: Number(medianPairRatio(rea, node).toFixed(2)),
  }
}

const CAPTURE_TRUE = ['capture-process', 'true.json', '--json', '--output', 'capture.json', '--no-progress']

export function runStartupBenchmark({ count = 15 } = {}) {
  const work = mkdtempSync(path.join(tmpdir(), 'rea-bench-startup-'))
  try {
    writeFileSync(path.join(work, 'true.json'), JSON.stringify({ executable: 'true' }))
    const before = process.env.REA_BEFORE_CLI
    return {
      pairs: count,
      version: pairs([cli, '--version'], work, count),
      help: pairs([cli, 'capture-process', '--help'], work, count),
      capture_true: pairs([cli, ...CAPTURE_TRUE], work, count),
      // The build before in the place of `node -e 0`: a ratio below 1 is this build faster.
      against_before:
        before === undefined
          ? null
          : {
              help: pairs([cli, 'capture-process', '--help'], work, count, [
                before,
                'capture-process',
                '--help',
              ]),
              capture_true: pairs([cli, ...CAPTURE_TRUE], work, count, [before, ...CAPTURE_TRUE]),
            },
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
