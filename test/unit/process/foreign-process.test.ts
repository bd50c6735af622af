import { describe, expect, test } from 'vitest'
import { proveForeign, readAdopters, type CaptureBoundary } from '../../../src/process/foreign-process.js'
import { procInspector, type ProcessInspector } from '../../../src/process/inspector.js'
import type { ProcStat } from '../../../src/process/proc-linux.js'

// A process table made up for the rule: the root (pid 500) started at tick 1000 and leads session 500; REA is
// pid 400, its parent the shell 300, then init.
const ROOT_TICKS = 1000
const BOOT = 'boot'

function stat(pid: number, fields: Partial<ProcStat> = {}): ProcStat {
  return {
    pid,
    comm: `p${pid}`,
    state: 'S',
    ppid: 1,
    pgid: pid,
    sid: pid,
    startTicks: ROOT_TICKS + 5,
    kernelThread: false,
    ...fields,
  }
}

const TABLE: readonly ProcStat[] = [
  stat(1, { ppid: 0, startTicks: 1 }),
  stat(2, { ppid: 0, startTicks: 1, kernelThread: true }),
  stat(300, { startTicks: 100, sid: 300 }),
  stat(400, { ppid: 300, startTicks: 200, sid: 300, pgid: 400 }),
  stat(500, { ppid: 400, startTicks: ROOT_TICKS }),
  // Another user's job: a shell started before the capture in a session of its own.
  stat(600, { startTicks: 50, sid: 600 }),
  // A subreaper-less daemon that is not REA's ancestor and started before the capture.
  stat(700, { ppid: 1, startTicks: 60, sid: 700 }),
  // A process started during the capture that leads its own session, an orphan of someone.
  stat(800, { ppid: 1, startTicks: ROOT_TICKS + 2, sid: 800 }),
]

function inspectorOf(table: readonly ProcStat[]): ProcessInspector {
  const byPid = new Map(table.map((entry) => [entry.pid, entry]))
  return {
    ...procInspector,
    readStat: (pid) => {
      const entry = byPid.get(pid)
      return entry === undefined ? { status: 'gone' } : { status: 'ok', value: entry }
    },
    bootId: () => BOOT,
  }
}

const inspector = inspectorOf(TABLE)
const boundary: CaptureBoundary = {
  rootStartTicks: ROOT_TICKS,
  rootSessionId: 500,
  adopters: readAdopters(inspector, 400),
}

describe('readAdopters', () => {
  test('lists REA and every ancestor up to init, with their start times', () => {
    expect(boundary.adopters).toEqual([
      { pid: 400, start_ticks: 200, boot_id: BOOT },
      { pid: 300, start_ticks: 100, boot_id: BOOT },
      { pid: 1, start_ticks: 1, boot_id: BOOT },
    ])
  })

  test('ends at init when an ancestor exited meanwhile', () => {
    const cut = inspectorOf(TABLE.filter((entry) => entry.pid !== 300))
    expect(readAdopters(cut, 400).map((adopter) => adopter.pid)).toEqual([400, 1])
  })
})

describe('proveForeign', () => {
  test.for([
    ['a kernel thread (PF_KTHREAD)', stat(900, { ppid: 0, kernelThread: true, sid: 0 }), 'kernel_thread'],
    ['a child of kthreadd', stat(901, { ppid: 2, sid: 0 }), 'kernel_thread'],
    [
      "a process in another user's session, whose leader started before the capture",
      stat(902, { ppid: 600, sid: 600 }),
      'session',
    ],
    [
      'a child of a process that started before the capture and adopts nothing of it',
      stat(903, { ppid: 700, sid: 903 }),
      'ancestry',
    ],
    [
      'a grandchild of such a process, through one started during the capture',
      stat(904, { ppid: 905, sid: 904 }),
      'ancestry',
    ],
  ] as const)('proves %s is not the capture’s', ([, process, proof]) => {
    const table = inspectorOf([...TABLE, stat(905, { ppid: 700, sid: 905 }), process])
    expect(proveForeign(process, boundary, table)).toBe(proof)
  })

  test.for([
    ['a member of the root’s session', stat(910, { ppid: 1, sid: 500, pgid: 500 })],
    ['a child of the root', stat(911, { ppid: 500, sid: 911 })],
    ['an orphan handed to init', stat(912, { ppid: 1, sid: 912 })],
    ['a child of REA itself (an adopter)', stat(913, { ppid: 400, sid: 913 })],
    ['a child of REA’s shell (an adopter)', stat(914, { ppid: 300, sid: 914 })],
    ['a session leader started during the capture, child of an orphan', stat(915, { ppid: 800, sid: 915 })],
    ['a process in a session whose leader is gone', stat(916, { ppid: 1, sid: 999 })],
    [
      'a process whose parent pid now names a younger process (reused)',
      stat(917, { ppid: 918, sid: 917, startTicks: ROOT_TICKS + 3 }),
    ],
  ] as const)('leaves %s undecided: it could be the capture’s', ([, process]) => {
    const table = inspectorOf([
      ...TABLE,
      stat(918, { ppid: 700, startTicks: ROOT_TICKS + 9, sid: 918 }),
      process,
    ])
    expect(proveForeign(process, boundary, table)).toBeUndefined()
  })

  test('a session whose leader is gone is proven by another member that started before the capture', () => {
    // Session 999's leader exited; 950, started before the root, is still in it (a CI agent's shell that left).
    const member = stat(950, { ppid: 1, sid: 999, startTicks: 70 })
    const orphan = stat(916, { ppid: 1, sid: 999 })
    const table = inspectorOf([...TABLE, member, orphan])
    const witnesses = new Map([[999, { pid: 950, startTicks: 70 }]])
    expect(proveForeign(orphan, boundary, table, witnesses)).toBe('session')
    // The witness must still be that process, in that session: a reused pid or a session left proves nothing.
    const reused = new Map([[999, { pid: 950, startTicks: 71 }]])
    expect(proveForeign(orphan, boundary, table, reused)).toBeUndefined()
    const left = inspectorOf([...TABLE, { ...member, sid: 950 }, orphan])
    expect(proveForeign(orphan, boundary, left, witnesses)).toBeUndefined()
    expect(proveForeign(orphan, boundary, table)).toBeUndefined()
  })

  test('session 0 (init’s, or one made outside this PID namespace) is never the capture’s', () => {
    // The root leads a session of its own, so every session of the capture is named by one of its pids.
    const process = stat(921, { ppid: 400, sid: 0, pgid: 400 })
    expect(proveForeign(process, boundary, inspector)).toBe('session')
    expect(proveForeign(process, { ...boundary, rootSessionId: undefined }, inspector)).toBeUndefined()
    const helper = { ...inspector, name: 'macOS helper' }
    expect(proveForeign(process, boundary, helper)).toBeUndefined()
  })

  test('a session leader whose parent, started during the capture, is in a session made before it', () => {
    // REA's shell (an adopter) starts a worker in its own old session; the worker starts a process with setsid.
    const worker = stat(930, { ppid: 300, sid: 300, pgid: 300 })
    const child = stat(931, { ppid: 930, sid: 931 })
    expect(proveForeign(child, boundary, inspectorOf([...TABLE, worker, child]))).toBe('ancestry')
  })

  test('a session proves nothing when the root’s own session is unknown', () => {
    const process = stat(920, { ppid: 1, sid: 600 })
    expect(proveForeign(process, { ...boundary, rootSessionId: undefined }, inspector)).toBeUndefined()
  })
})
