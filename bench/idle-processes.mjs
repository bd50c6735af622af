// Idle `sleep` processes that are not REA's, as on a developer's desktop or a busy CI runner: every token scan
// of a capture reads past each of them.
import { spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'

/** Runs `body` while `count` idle processes run; they are killed and reaped afterwards. */
export async function withIdleProcesses(count, body) {
  const idle = Array.from({ length: count }, () => spawn('sleep', ['600'], { stdio: 'ignore' }))
  try {
    // Waits until every one is running. Counting /proc entries against a baseline hung when the baseline held
    // processes that exited meanwhile (the previous batch's unreaped children).
    while (!idle.every((child) => child.pid !== undefined && existsSync(`/proc/${child.pid}`))) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    return await body()
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

/** How many processes /proc lists now. */
export function processesOnHost() {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).length
}
