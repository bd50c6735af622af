// Token scans with many idle processes, and cleanup latency after the root exits.
import { readFileSync } from 'node:fs'
import { captureProcess } from '../dist/index.js'
import { scanForRunToken } from '../dist/bench-internals.js'
import { processesOnHost, withIdleProcesses } from './idle-processes.mjs'
import { median } from './statistics.mjs'

export async function runProcessScanBenchmark({ counts = [100, 1000], repeats = 30 } = {}) {
  const scans = []
  for (const count of counts) {
    await withIdleProcesses(count, async () => {
      const total = processesOnHost()
      // As a capture scans: only processes started since its root count (here: none of the idle ones).
      const startedSinceTicks = Math.floor(Number(readFileSync('/proc/uptime', 'latin1').split(' ')[0]) * 100)
      const token = 'rea-benchmark-token-that-no-process-carries'
      // A complete scan (what every observation of a capture's tree runs), then one that may examine only the
      // recent processes the complete one listed, as it does when no task was created on the host in between.
      const complete = []
      const following = []
      let examinedOnlyRecent = 0
      for (let index = 0; index < repeats; index++) {
        let started = performance.now()
        const first = await scanForRunToken(token, { startedSinceTicks, listRecent: true })
        complete.push(performance.now() - started)
        started = performance.now()
        const next = await scanForRunToken(token, {
          startedSinceTicks,
          listRecent: true,
          ...(first.listing === undefined ? {} : { previous: first.listing }),
        })
        following.push(performance.now() - started)
        if (first.listing !== undefined && next.listing?.forks === first.listing.forks) {
          examinedOnlyRecent++
        }
      }
      scans.push({
        idle_processes: count,
        processes_on_host: total,
        complete_scan_median_ms: Number(median(complete).toFixed(2)),
        following_scan_median_ms: Number(median(following).toFixed(2)),
        following_scans_without_listing: `${examinedOnlyRecent}/${repeats}`,
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
