import { spawn, type ChildProcess } from 'node:child_process'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { procInspector, useProcessInspector, type ProcessInspector } from '../../../src/process/inspector.js'
import { createRunToken } from '../../../src/process/run-token.js'
import { scanForRunToken } from '../../../src/process/token-scan.js'
import { RUN_TOKEN_VARIABLE } from '../../../src/scenario/reserved-environment.js'

// Real processes, read through the real /proc inspector. Only their environment reads are made to fail, the
// way a child forked by a process REA may not read fails until it execs its own program.
const token = createRunToken()
let sinceTicks: number
let carrier: ChildProcess
let stranger: ChildProcess

function sleeper(environment: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn('sleep', ['600'], { env: environment, stdio: 'ignore' })
  return new Promise((resolve, reject) => {
    child.once('spawn', () => resolve(child))
    child.once('error', reject)
  })
}

/** The /proc inspector, with the environment of `pids` unreadable (EACCES) for their first `failures` reads. */
function failingEnvironReads(pids: readonly number[], failures: number): ProcessInspector {
  const left = new Map(pids.map((pid) => [pid, failures]))
  return {
    ...procInspector,
    readEnviron(pid, entry) {
      const remaining = left.get(pid) ?? 0
      if (remaining > 0) {
        left.set(pid, remaining - 1)
        return { status: 'unreadable', code: 'EACCES' }
      }
      return procInspector.readEnviron(pid, entry)
    },
  }
}

beforeAll(async () => {
  sinceTicks = procInspector.uptimeTicks() - 1
  carrier = await sleeper({ PATH: process.env.PATH, [RUN_TOKEN_VARIABLE]: token })
  stranger = await sleeper({ PATH: process.env.PATH })
})

afterEach(() => useProcessInspector(procInspector))

afterAll(async () => {
  await Promise.all(
    [carrier, stranger].map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) {
            resolve(undefined)
            return
          }
          child.once('exit', resolve)
          child.kill('SIGKILL')
        }),
    ),
  )
})

describe('scanForRunToken and environments it cannot read at first', () => {
  for (const listRecent of [false, true]) {
    const scanKind = listRecent ? 'a settlement scan' : 'a running sample'

    test(`${scanKind} reads a briefly unreadable environment again and decides it`, async () => {
      const pids = [carrier.pid as number, stranger.pid as number]
      useProcessInspector(failingEnvironReads(pids, 3))
      const scan = await scanForRunToken(token, { startedSinceTicks: sinceTicks, listRecent })
      expect(scan.holders.map((holder) => holder.identity.pid)).toEqual([carrier.pid])
      expect(scan.unreadable).toEqual([])
    })

    test(`${scanKind} lists an environment that stays unreadable, once, with the reason`, async () => {
      useProcessInspector(failingEnvironReads([stranger.pid as number], Number.POSITIVE_INFINITY))
      const scan = await scanForRunToken(token, { startedSinceTicks: sinceTicks, listRecent })
      expect(scan.holders.map((holder) => holder.identity.pid)).toEqual([carrier.pid])
      expect(scan.unreadable).toEqual([
        expect.objectContaining({ pid: stranger.pid, reason: 'environment unreadable: EACCES' }),
      ])
    })
  }
})
