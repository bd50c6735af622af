// In-process benchmark: captureProcess of `true` vs raw node-pty spawn→exit of `true`.
import { spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import * as ptyNs from 'node-pty'
import { captureProcess } from '../dist/index.js'

const pty = typeof ptyNs.spawn === 'function' ? ptyNs : ptyNs.default

function rawSpawnExit() {
  return new Promise((resolve) => {
    const child = pty.spawn('true', [], { cols: 80, rows: 24 })
    child.onExit(resolve)
  })
}

/**
 * `idleProcesses`: that many `sleep` processes that are not REA's run during the benchmark, as on a developer's
 * desktop or a busy CI runner: every capture's token scans read past each of them.
 */
export async function runSpawnExitBenchmark({ iterations = 60, warmup = 10, idleProcesses = 0 } = {}) {
  const idle = Array.from({ length: idleProcesses }, () => spawn('sleep', ['600'], { stdio: 'ignore' }))
  try {
    while (!idle.every((child) => child.pid !== undefined && existsSync(`/proc/${child.pid}`))) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    return { idle_processes: idleProcesses, ...(await alternate(iterations, warmup)) }
  } finally {
    // Reaped before returning, so the next benchmark does not scan past their zombies.
    await Promise.all(
      idle.map((child) => {
        const exited =
          child.exitCode !== null || child.signalCode !== null
            ? Promise.resolve()
            : new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGKILL')
        return exited
      }),
    )
  }
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
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
  return {
    iterations,
    processes_on_host: readdirSync('/proc').filter((name) => /^\d+$/.test(name)).length,
    capture_median_ms: Number(median(capture).toFixed(2)),
    raw_median_ms: Number(median(raw).toFixed(2)),
    ratio: Number((median(capture) / median(raw)).toFixed(2)),
  }
}
