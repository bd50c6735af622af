// Token scans with many idle processes, and cleanup latency after the root exits.
import { readFileSync } from 'node:fs'
import { captureProcess } from '../dist/index.js'
import { scanForRunToken } from '../dist/bench-internals.js'
import { processesOnHost, withIdleProcesses } from './idle-processes.mjs'

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

export async function runProcessScanBenchmark({ counts = [100, 1000], repeats = 30 } = {}) {
  const scans = []
  for (const count of counts) {
    await withIdleProcesses(count, async () => {
      const total = processesOnHost()
      // As a capture scans: only processes started since its root count (here: none of the idle ones).
      const startedSinceTicks = Math.floor(Number(readFileSync('/proc/uptime', 'latin1').split(' ')[0]) * 100)
      const token = 'rea-benchmark-token-that-no-process-carries'
      const sample = []
      const settlement = []
      for (let index = 0; index < repeats; index++) {
        let started = performance.now()
        await scanForRunToken(token, { startedSinceTicks })
        sample.push(performance.now() - started)
        started = performance.now()
        await scanForRunToken(token, { startedSinceTicks, listRecent: true })
        settlement.push(performance.now() - started)
      }
      scans.push({
        idle_processes: count,
        processes_on_host: total,
        scan_median_ms: Number(median(sample).toFixed(2)),
        settlement_scan_median_ms: Number(median(settlement).toFixed(2)),
      })
    })
  }
  // Cleanup latency: a root that leaves a detached sleeper behind; cleanup kills and confirms it.
  const cleanup = []
  for (let index = 0; index < 15; index++) {
    const evidence = await captureProcess({
      executable: 'test/fixtures/programs/detach-sleeper.sh',
      settle_ms: 0,
    })
    cleanup.push(evidence.cleanup.elapsed_ms)
  }
  return { scans, cleanup_after_exit_median_ms: median(cleanup) }
}
