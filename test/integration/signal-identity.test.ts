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
    const first = startSleeper()
    const original = await identityOf(first)
    first.kill('SIGKILL')
    await new Promise((resolve) => first.once('exit', resolve))
    // Start times have 10 ms resolution: let the clock move past the first start before reusing its PID.
    await waitFor(() => ticksNow() > original.start_ticks + 2)

    let successor: ChildProcess | undefined
    for (let attempt = 0; attempt < 50 && successor === undefined; attempt++) {
      // As root, writing N−1 here makes the next fork in this PID namespace get PID N.
      writeFileSync('/proc/sys/kernel/ns_last_pid', String(original.pid - 1))
      const candidate = startSleeper()
      if (candidate.pid === original.pid) {
        successor = candidate
      }
    }
    expect(successor, 'could not make a new process take over the PID').toBeDefined()
    await identityOf(successor!)

    expect(sendCheckedSignal(original, 'SIGTERM')).toEqual({ delivery: 'identity-changed' })
    expect(await deliverSignal(original, 'SIGKILL')).toEqual({ delivery: 'identity-changed' })
    expect(isAlive(original.pid)).toBe(true)
  })
})
