import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, test } from 'vitest'
import { readStartIdentity, type StartIdentity } from '../../src/process/identity.js'
import { deliverSignal, sendCheckedSignal } from '../../src/process/signal.js'
import { waitFor } from '../helpers/wait-for.js'

const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) {
    child.kill('SIGKILL')
  }
})

function startSleeper(): ChildProcess {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' })
  children.push(child)
  return child
}

async function identityOf(child: ChildProcess): Promise<StartIdentity> {
  return waitFor(() => {
    const read = readStartIdentity(child.pid!)
    return read.status === 'ok' && read.value.stat.comm === 'sleep' ? read.value.identity : undefined
  })
}

const isAlive = (pid: number) => readStartIdentity(pid).status === 'ok'
/** Clock ticks since boot, the unit of start times. */
const ticksNow = () => Math.floor(Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * 100)

/**
 * Starts sleepers until one gets the PID of `original`, a process that has ended: as root, writing N−1 to
 * ns_last_pid makes the next fork in this PID namespace get PID N. Undefined when another process took it.
 */
async function takeOverPid(original: StartIdentity): Promise<ChildProcess | undefined> {
  // Start times have 10 ms resolution: let the clock move past the first start before reusing its PID.
  await waitFor(() => ticksNow() > original.start_ticks + 2)
  for (let attempt = 0; attempt < 50; attempt++) {
    writeFileSync('/proc/sys/kernel/ns_last_pid', String(original.pid - 1))
    const candidate = startSleeper()
    if (candidate.pid === original.pid) {
      return candidate
    }
    candidate.kill('SIGKILL')
    if (isAlive(original.pid)) {
      return undefined
    }
  }
  return undefined
}

describe('identity-checked signals', () => {
  test('signals a live process whose identity still matches', async () => {
    const child = startSleeper()
    const identity = await identityOf(child)
    expect(sendCheckedSignal(identity, 'SIGTERM')).toEqual({ delivery: 'signaled' })
    await waitFor(() => !isAlive(child.pid!))
  })

  test('reports a process that is gone without sending anything', async () => {
    const child = startSleeper()
    const identity = await identityOf(child)
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('exit', resolve))
    expect(sendCheckedSignal(identity, 'SIGTERM')).toEqual({ delivery: 'gone' })
  })

  test('records identity-changed and leaves alone a new process that took over the PID', async () => {
    // On a busy machine another process can take the PID first; each round then starts over with a new one.
    let taken: { original: StartIdentity; successor: ChildProcess } | undefined
    for (let round = 0; round < 10 && taken === undefined; round++) {
      const first = startSleeper()
      const identity = await identityOf(first)
      first.kill('SIGKILL')
      await new Promise((resolve) => first.once('exit', resolve))
      const successor = await takeOverPid(identity)
      taken = successor === undefined ? undefined : { original: identity, successor }
    }
    expect(taken, 'could not make a new process take over the PID').toBeDefined()
    const { original, successor } = taken!
    await identityOf(successor)

    expect(sendCheckedSignal(original, 'SIGTERM')).toEqual({ delivery: 'identity-changed' })
    expect(await deliverSignal(original, 'SIGKILL')).toEqual({ delivery: 'identity-changed' })
    expect(isAlive(original.pid)).toBe(true)
  })
})
