// In-process benchmark: captureProcess of `true` vs raw node-pty spawn→exit of `true`.
import * as ptyNs from 'node-pty'
import { captureProcess } from '../dist/index.js'
import { processesOnHost, withIdleProcesses } from './idle-processes.mjs'
import { median, medianPairRatio } from './statistics.mjs'

const pty = typeof ptyNs.spawn === 'function' ? ptyNs : ptyNs.default

function rawSpawnExit() {
  return new Promise((resolve) => {
    const child = pty.spawn('true', [], { cols: 80, rows: 24 })
    child.onExit(resolve)
  })
}

/** `idleProcesses`: that many idle processes that are not REA's run during the benchmark. */
export function runSpawnExitBenchmark({ iterations = 60, warmup = 10, idleProcesses = 0 } = {}) {
  return withIdleProcesses(idleProcesses, async () => ({
    idle_processes: idleProcesses,
    ...(await alternate(iterations, warmup)),
  }))
}

async function alternate(iterations, warmup) {
  for (let index = 0; index < warmup; index++) {
    await captureProcess({ executable: 'true' })
    await rawSpawnExit()
  }
  const capture = []
  const raw = []
  for (let index = 0; index < iterations; index++) {
    // Alternate so drift in machine load affects both alike.
    let started = performance.now()
    await captureProcess({ executable: 'true' })
    capture.push(performance.now() - started)
    started = performance.now()
    await rawSpawnExit()
    raw.push(performance.now() - started)
  }
  const blocks = await alternateBlocks()
  return {
    iterations,
    processes_on_host: processesOnHost(),
    capture_median_ms: Number(median(capture).toFixed(2)),
    raw_median_ms: Number(median(raw).toFixed(2)),
    ratio: Number((median(capture) / median(raw)).toFixed(2)),
    pair_ratio: Number(medianPairRatio(capture, raw).toFixed(2)),
    ...blocks,
  }
}

/**
 * Pairs charge work a capture leaves running after it resolved (closing handles, a reaper thread ending) to
 * the raw spawn that follows it. Blocks of back-to-back captures against blocks of back-to-back raw spawns
 * charge it to the captures, as a test suite that runs one capture after another pays it.
 */
async function alternateBlocks(rounds = 9, perBlock = 20) {
  const capture = []
  const raw = []
  for (let round = 0; round < rounds; round++) {
    let started = performance.now()
    for (let index = 0; index < perBlock; index++) {
      await captureProcess({ executable: 'true' })
    }
    capture.push((performance.now() - started) / perBlock)
    started = performance.now()
    for (let index = 0; index < perBlock; index++) {
      await rawSpawnExit()
    }
    raw.push((performance.now() - started) / perBlock)
  }
  return {
    blocks: { rounds, per_block: perBlock },
    capture_block_median_ms: Number(median(capture).toFixed(2)),
    raw_block_median_ms: Number(median(raw).toFixed(2)),
    block_ratio: Number((median(capture) / median(raw)).toFixed(2)),
    block_pair_ratio: Number(medianPairRatio(capture, raw).toFixed(2)),
  }
}
