// The supervisor's cost, side by side in one run: captures of `true` with and without it (alternating, in one
// process), the same as a bare node-pty spawn, the one-time start in fresh processes, and its memory.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as ptyNs from 'node-pty'
import { captureProcess } from '../dist/index.js'
import { useSupervisor } from '../dist/bench-internals.js'
import { median } from './statistics.mjs'

const pty = typeof ptyNs.spawn === 'function' ? ptyNs : ptyNs.default
const here = path.dirname(fileURLToPath(import.meta.url))
const round = (value) => Number(value.toFixed(2))

function rawSpawnExit() {
  return new Promise((resolve) => pty.spawn('true', [], { cols: 80, rows: 24 }).onExit(resolve))
}

async function timed(action) {
  const started = performance.now()
  await action()
  return performance.now() - started
}

/** VmRSS of this process's supervisor, in KiB. */
function supervisorRssKib() {
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8')
      if (
        /^Name:\s+rea-supervisor$/m.test(status) &&
        /^PPid:\s+(\d+)$/m.exec(status)?.[1] === String(process.pid)
      ) {
        return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1])
      }
    } catch {
      // Gone between the listing and the read.
    }
  }
  return null
}

/** The first capture of a fresh process, which starts the supervisor (or not), in milliseconds. */
function firstCaptureMs(supervised) {
  const script = `
    import { captureProcess } from ${JSON.stringify(path.join(here, '../dist/index.js'))}
    import { useSupervisor } from ${JSON.stringify(path.join(here, '../dist/bench-internals.js'))}
    useSupervisor(${supervised})
    const started = performance.now()
    await captureProcess({ executable: 'true' })
    console.log(performance.now() - started)`
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }))
}

export async function runSupervisorBenchmark({ iterations = 60, warmup = 10, fresh = 10 } = {}) {
  useSupervisor(true)
  for (let index = 0; index < warmup; index++) {
    await captureProcess({ executable: 'true' })
    await rawSpawnExit()
  }
  const rss = supervisorRssKib()
  const withSupervisor = []
  const without = []
  const raw = []
  const supervised = async (on) => {
    useSupervisor(on)
    ;(on ? withSupervisor : without).push(await timed(() => captureProcess({ executable: 'true' })))
  }
  for (let index = 0; index < iterations; index++) {
    // Interleaved, and in turn first, so drift in machine load and warm caches affect both alike.
    await supervised(index % 2 === 0)
    await supervised(index % 2 !== 0)
    raw.push(await timed(rawSpawnExit))
  }
  useSupervisor(true)
  const firstWith = []
  const firstWithout = []
  for (let index = 0; index < fresh; index++) {
    firstWith.push(firstCaptureMs(true))
    firstWithout.push(firstCaptureMs(false))
  }
  return {
    iterations,
    capture_with_supervisor_median_ms: round(median(withSupervisor)),
    capture_without_supervisor_median_ms: round(median(without)),
    raw_node_pty_median_ms: round(median(raw)),
    with_vs_without: round(median(withSupervisor) / median(without)),
    with_vs_raw_node_pty: round(median(withSupervisor) / median(raw)),
    fresh_processes: fresh,
    first_capture_with_supervisor_median_ms: round(median(firstWith)),
    first_capture_without_supervisor_median_ms: round(median(firstWithout)),
    supervisor_start_ms: round(median(firstWith) - median(firstWithout)),
    supervisor_rss_kib: rss,
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await runSupervisorBenchmark(), null, 2))
}
