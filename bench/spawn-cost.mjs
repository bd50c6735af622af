// The cost of starting a command in a PTY as the starting process grows: REA's native spawner (vfork) against
// node-pty's spawn (forkpty) in the same process, for a process of about 50, 350 and 650 MB.
import { execFileSync } from 'node:child_process'
import { closeSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { median } from './statistics.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const BALLAST_MB = [0, 300, 600]

export function runSpawnCostBenchmark() {
  return BALLAST_MB.map((ballastMb) =>
    JSON.parse(
      execFileSync(process.execPath, [fileURLToPath(import.meta.url), String(ballastMb)], {
        encoding: 'utf8',
      }),
    ),
  )
}

/** In the child: alternate the two spawn calls, timing only the call (the start), and wait for every exit. */
async function measure(ballastMb, iterations = 40) {
  const require = createRequire(import.meta.url)
  const pty = require('node-pty')
  const native = require(path.join(here, '../native/linux/build/Release/rea_pty.node'))
  const ballast = []
  for (let index = 0; index < ballastMb; index++) {
    ballast.push(Buffer.alloc(1 << 20, 1))
  }
  const nativeTimes = []
  const nodePtyTimes = []
  const exits = []
  for (let index = 0; index < iterations; index++) {
    let onExit
    exits.push(new Promise((resolve) => (onExit = resolve)))
    let started = performance.now()
    const spawned = native.spawn('/bin/true', ['true'], [], '/', 80, 24, onExit)
    nativeTimes.push(performance.now() - started)
    closeSync(spawned.fd)
    closeSync(spawned.slave)
    started = performance.now()
    const child = pty.spawn('/bin/true', [], { cols: 80, rows: 24 })
    nodePtyTimes.push(performance.now() - started)
    exits.push(new Promise((resolve) => child.onExit(resolve)))
  }
  await Promise.all(exits)
  return {
    rss_mb: Math.round(process.memoryUsage().rss / 2 ** 20),
    ballast_length: ballast.length,
    native_spawn_median_ms: Number(median(nativeTimes).toFixed(3)),
    node_pty_spawn_median_ms: Number(median(nodePtyTimes).toFixed(3)),
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(JSON.stringify(await measure(Number(process.argv[2]))))
}
