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

/** Each live process's PID with its /proc status text (zombies left out). */
function* liveProcesses() {
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8')
      if (!/^State:\s+Z/m.test(status)) {
        yield { pid: name, status }
      }
    } catch {
      // Gone between the listing and the read.
    }
  }
}

const parentOf = (status) => /^PPid:\s+(\d+)$/m.exec(status)?.[1]

/** VmRSS of this process's supervisor, in KiB. */
function supervisorRssKib() {
  for (const { status } of liveProcesses()) {
    if (/^Name:\s+rea-supervisor$/m.test(status) && parentOf(status) === String(process.pid)) {
      return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1])
    }
  }
  return null
}

/** CPU time of the whole machine so far, in milliseconds (every process's, a detached supervisor's too). */
function machineCpuMs() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/)
  const [user, nice, system, , , irq, softirq] = fields.map(Number)
  return ((user + nice + system + irq + softirq) * 1000) / 100
}

/**
 * The first capture of a fresh process, which starts the supervisor (`waiter`: the native waiter, `node`: Node.js
 * from the start, `none`: no supervisor), in milliseconds, and the whole machine's CPU over that process's life,
 * until its supervisor ended too.
 */
async function firstCapture(supervisor) {
  const script = `
    import { captureProcess } from ${JSON.stringify(path.join(here, '../dist/index.js'))}
    import { useSupervisor } from ${JSON.stringify(path.join(here, '../dist/bench-internals.js'))}
    useSupervisor(${supervisor !== 'none'}, { waiter: ${supervisor === 'waiter'} })
    const started = performance.now()
    await captureProcess({ executable: 'true' })
    console.log(performance.now() - started)`
  const cpuBefore = machineCpuMs()
  const ms = Number(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
  )
  // The supervisor ends once its parent has; a Node.js one reads its registry first.
  while (supervisorsOfDeadParents() > 0) {
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  return { ms, cpuMs: machineCpuMs() - cpuBefore }
}

/** Supervisors of this build still running whose parent is not this process: the fresh processes' ones. */
function supervisorsOfDeadParents() {
  const script = path.join(here, '../dist/supervisor.')
  let count = 0
  for (const { pid, status } of liveProcesses()) {
    try {
      if (
        parentOf(status) !== String(process.pid) &&
        readFileSync(`/proc/${pid}/cmdline`, 'utf8')
          .split('\0')
          .some((arg) => arg.startsWith(script))
      ) {
        count++
      }
    } catch {
      // Gone between the status and the command line.
    }
  }
  return count
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
  const first = { waiter: [], node: [], none: [] }
  for (let index = 0; index < fresh; index++) {
    for (const supervisor of Object.keys(first)) {
      first[supervisor].push(await firstCapture(supervisor))
    }
  }
  const firstMs = (supervisor) => median(first[supervisor].map(({ ms }) => ms))
  const cpuMs = (supervisor) => median(first[supervisor].map(({ cpuMs }) => cpuMs))
  return {
    iterations,
    capture_with_supervisor_median_ms: round(median(withSupervisor)),
    capture_without_supervisor_median_ms: round(median(without)),
    raw_node_pty_median_ms: round(median(raw)),
    with_vs_without: round(median(withSupervisor) / median(without)),
    with_vs_raw_node_pty: round(median(withSupervisor) / median(raw)),
    fresh_processes: fresh,
    first_capture_with_supervisor_median_ms: round(firstMs('waiter')),
    first_capture_with_node_supervisor_median_ms: round(firstMs('node')),
    first_capture_without_supervisor_median_ms: round(firstMs('none')),
    supervisor_start_ms: round(firstMs('waiter') - firstMs('none')),
    machine_cpu_per_fresh_process_ms: {
      waiter: round(cpuMs('waiter')),
      node_supervisor: round(cpuMs('node')),
      no_supervisor: round(cpuMs('none')),
    },
    supervisor_rss_kib: rss,
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await runSupervisorBenchmark(), null, 2))
}
