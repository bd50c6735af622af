import type { ChildProcess } from 'node:child_process'

/** Resolves once the child has started, rejects if it could not be. */
export function whenSpawned(child: ChildProcess): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    child.once('spawn', () => resolve(child))
    child.once('error', reject)
  })
}

/** Kills a helper process a test started with SIGKILL and resolves once it has exited. */
export function killAndWait(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve()
      return
    }
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })
}
