import { spawn, type ChildProcess } from 'node:child_process'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { procInspector, useProcessInspector, type ProcessInspector } from '../../../src/process/inspector.js'
import { createRunToken } from '../../../src/process/run-token.js'
import { OwnedTree } from '../../../src/process/owned-tree.js'
import { scanForRunToken } from '../../../src/process/token-scan.js'
import { RUN_TOKEN_VARIABLE } from '../../../src/scenario/reserved-environment.js'
import { killAndWait, whenSpawned } from '../../helpers/child-processes.js'

// Real processes, read through the real /proc inspector. Only their environment reads are made to fail, the
// way a child forked by a process REA may not read fails until it execs its own program.
const token = createRunToken()
let sinceTicks: number
let carrier: ChildProcess
let stranger: ChildProcess

function sleeper(environment: NodeJS.ProcessEnv): Promise<ChildProcess> {
  return whenSpawned(spawn('sleep', ['600'], { env: environment, stdio: 'ignore' }))
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
  carrier = await sleeper({ PATH: process.env['PATH'], [RUN_TOKEN_VARIABLE]: token })
  stranger = await sleeper({ PATH: process.env['PATH'] })
})

afterEach(() => useProcessInspector(procInspector))

afterAll(async () => {
  await Promise.all([carrier, stranger].map(killAndWait))
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

/** The /proc inspector with a task count that reads `count()` and listings that are counted in `listings`. */
function countedListings(count: () => number): { inspector: ProcessInspector; listings: { value: number } } {
  const listings = { value: 0 }
  return {
    inspector: {
      ...procInspector,
      forkCount: count,
      listProcessIds() {
        listings.value++
        return procInspector.listProcessIds()
      },
    },
    listings,
  }
}

describe('scans while no task is created on the host', () => {
  test('examine only the processes the last complete scan found started since, and find the same', async () => {
    const { inspector, listings } = countedListings(() => 1000)
    useProcessInspector(inspector)
    const first = await scanForRunToken(token, { startedSinceTicks: sinceTicks, listRecent: true })
    expect(first.listing).toMatchObject({ forks: 1000, startedSinceTicks: sinceTicks })
    expect(first.listing?.recent).toEqual(expect.arrayContaining([carrier.pid, stranger.pid]))
    const listed = listings.value
    const second = await scanForRunToken(token, {
      startedSinceTicks: sinceTicks,
      listRecent: true,
      previous: first.listing!,
    })
    expect(listings.value).toBe(listed)
    expect(second.holders.map((holder) => holder.identity.pid)).toEqual([carrier.pid])
    expect(second.recentProcesses.map((recent) => recent.identity.pid).sort()).toEqual(
      [...(first.listing?.recent ?? [])].sort(),
    )
  })

  test('list every process again once the count moved', async () => {
    let count = 1000
    const { inspector, listings } = countedListings(() => count)
    useProcessInspector(inspector)
    const first = await scanForRunToken(token, { startedSinceTicks: sinceTicks, listRecent: true })
    const listed = listings.value
    count++
    await scanForRunToken(token, {
      startedSinceTicks: sinceTicks,
      listRecent: true,
      previous: first.listing!,
    })
    expect(listings.value).toBeGreaterThan(listed)
  })

  test("find a carrier started after the last complete scan: its fork moved the host's real count", async () => {
    const first = await scanForRunToken(token, { startedSinceTicks: sinceTicks, listRecent: true })
    expect(first.listing).toBeDefined()
    const late = await sleeper({ PATH: process.env['PATH'], [RUN_TOKEN_VARIABLE]: token })
    try {
      const second = await scanForRunToken(token, {
        startedSinceTicks: sinceTicks,
        listRecent: true,
        previous: first.listing!,
      })
      expect(second.holders.map((holder) => holder.identity.pid)).toContain(late.pid)
    } finally {
      await killAndWait(late)
    }
  })

  test.for([
    ['lists the host again: it never trusts a count that did not grow over the root’s own fork', 1000, true],
    ['observes again without listing the host once the count grew over the root’s fork', 999, false],
  ] as const)('an owned tree %s', async ([, forksBeforeLaunch, listsAgain]) => {
    const { inspector, listings } = countedListings(() => 1000)
    useProcessInspector(inspector)
    const root = { pid: carrier.pid, identity: undefined, startTicks: sinceTicks, forksBeforeLaunch }
    const tree = new OwnedTree(token, root, inspector)
    await tree.observe({ includeSession: true })
    const listed = listings.value
    const observation = await tree.observe({ includeSession: true })
    expect(listings.value > listed).toBe(listsAgain)
    expect(observation.owned.map((process) => process.identity.pid)).toEqual([carrier.pid])
  })

  test.for([
    ['examines the root alone when the count grew by just the spawn’s own tasks', 1000, 2, false],
    ['lists the host when another task was created since the spawn', 1001, 2, true],
    ['lists the host when the spawner declared no task', 1000, 0, true],
  ] as const)('a first observation %s', async ([, count, spawnTasks, lists]) => {
    const { inspector, listings } = countedListings(() => count)
    useProcessInspector(inspector)
    const identity = procInspector.readStat(carrier.pid as number)
    expect(identity.status).toBe('ok')
    const startTicks = identity.status === 'ok' ? identity.value.startTicks : 0
    const root = {
      pid: carrier.pid,
      identity: { pid: carrier.pid as number, start_ticks: startTicks, boot_id: procInspector.bootId() },
      startTicks,
      forksBeforeLaunch: 998,
      spawnTasks,
    }
    const observation = await new OwnedTree(token, root, inspector).observe({ includeSession: true })
    expect(listings.value > 0).toBe(lists)
    expect(observation.owned).toEqual([
      expect.objectContaining({ identity: root.identity, attribution: 'token' }),
    ])
  })

  test('a first observation of a root gone before its identity was read looks at its PID alone', async () => {
    const gone = await sleeper({ PATH: process.env['PATH'] })
    await killAndWait(gone)
    const { inspector, listings } = countedListings(() => 1000)
    useProcessInspector(inspector)
    const root = {
      pid: gone.pid,
      identity: undefined,
      startTicks: sinceTicks,
      forksBeforeLaunch: 998,
      spawnTasks: 2,
    }
    const observation = await new OwnedTree(token, root, inspector).observe({ includeSession: true })
    expect(listings.value).toBe(0)
    expect(observation).toEqual({ owned: [], unreadable: [] })
  })
})
