import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { waitFor } from '../../helpers/wait-for.js'
import { describe, expect, test } from 'vitest'
import {
  environContains,
  listProcessIds,
  parseProcStat,
  readBootId,
  readEnvironContains,
  readForkCount,
  readProcStat,
} from '../../../src/process/proc-linux.js'

/** Above the kernel's largest possible pid_max (2^22), so no process can have it. */
const NONEXISTENT_PID = 2 ** 22 + 7

interface StatFields {
  readonly state: string
  readonly ppid: number
  readonly pgid: number
  readonly sid: number
  readonly startTicks: number
  readonly flags: number
}

const DEFAULT_FIELDS: StatFields = {
  state: 'S',
  ppid: 41,
  pgid: 42,
  sid: 43,
  startTicks: 987654,
  flags: 4194560,
}

/** A /proc/PID/stat line whose every field holds a different value, so reading the wrong field shows. */
function statLine(pid: number, comm: string, fields: Partial<StatFields> = {}): string {
  const { state, ppid, pgid, sid, startTicks, flags } = { ...DEFAULT_FIELDS, ...fields }
  // Fields 7–21: tty_nr, tpgid, flags, minflt, cminflt, majflt, cmajflt, utime, stime, cutime, cstime,
  // priority, nice, num_threads, itrealvalue.
  const between = [34816, 4321, flags, 1001, 1002, 3, 4, 55, 66, 7, 8, 20, 0, 9, 0]
  const after = Array.from({ length: 30 }, (_, index) => 500 + index)
  return `${pid} (${comm}) ${[state, ppid, pgid, sid, ...between, startTicks, ...after].join(' ')}\n`
}

const bytes = (text: string): Buffer => Buffer.from(text, 'latin1')

describe('parseProcStat', () => {
  test('reads pid, comm, state, ppid, pgid, sid and start time', () => {
    expect(parseProcStat(1234, statLine(1234, 'node'))).toEqual({
      pid: 1234,
      comm: 'node',
      state: 'S',
      ppid: 41,
      pgid: 42,
      sid: 43,
      startTicks: 987654,
      kernelThread: false,
    })
  })

  test.for([
    ['a kernel thread', 0x00208040, true],
    ['a kernel thread whose flags use the top bit', 0x80208040, true],
    ['a user process', 0x00400100, false],
    ['a user process whose flags use the top bit', 0x80400100, false],
  ] as const)('reads PF_KTHREAD: %s', ([, flags, kernelThread]) => {
    expect(parseProcStat(7, statLine(7, 'x', { flags }))?.kernelThread).toBe(kernelThread)
  })

  test('reads a real kernel thread and this process as what they are', () => {
    const kthreadd = readProcStat(2)
    if (kthreadd.status === 'ok') {
      expect(kthreadd.value.kernelThread).toBe(true)
    }
    const self = readProcStat(process.pid)
    expect(self.status === 'ok' && self.value.kernelThread).toBe(false)
  })

  test.for([
    ['spaces', 'my prog'],
    ['parentheses', '(a) (b)'],
    ['a closing parenthesis followed by fake fields', 'x) R 1 1 1'],
    ['an unbalanced opening parenthesis', 'a(b'],
    ['nothing', ''],
  ] as const)('reads a comm containing %s', ([, comm]) => {
    expect(parseProcStat(7, statLine(7, comm, { state: 'Z', ppid: 99 }))).toMatchObject({
      comm,
      state: 'Z',
      ppid: 99,
      pgid: 42,
      sid: 43,
      startTicks: 987654,
    })
  })

  test('reads a start time larger than 32 bits', () => {
    expect(parseProcStat(7, statLine(7, 'x', { startTicks: 2 ** 40 + 3 }))?.startTicks).toBe(2 ** 40 + 3)
  })

  test.for([
    ['empty text', ''],
    ['text without parentheses', '123 cat S 1 2 3'],
    ['no closing parenthesis', '123 (cat S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20'],
    ['no opening parenthesis', '123 cat) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20'],
    [
      'a closing parenthesis before the opening one',
      `${statLine(123, 'cat').replace('(cat)', ')').trimEnd()} (`,
    ],
    ['text cut before the start time', '123 (cat) S 1 2 3 4 5'],
    ['text cut right after comm', '123 (cat)'],
    ['a non-numeric ppid', statLine(123, 'cat').replace(') S 41 ', ') S x41 ')],
    ['a non-numeric start time', statLine(123, 'cat').replace(' 987654 ', ' 98.5 ')],
  ] as const)('returns undefined for %s', ([, text]) => {
    expect(parseProcStat(123, text)).toBeUndefined()
  })
})

describe('environContains', () => {
  const entry = bytes('X=1')

  test.for([
    ['the only entry', 'X=1'],
    ['the first entry', 'X=1\0A=2'],
    ['a middle entry', 'A=2\0X=1\0B=3'],
    ['the last entry', 'A=2\0X=1'],
    ['the last entry before a trailing NUL', 'A=2\0X=1\0'],
    ['an entry after a longer one with the same name', 'X=12\0X=1'],
    ['an entry after one that ends with it', 'AX=1\0X=1'],
  ] as const)('finds the entry as %s', ([, environ]) => {
    expect(environContains(bytes(environ), entry)).toBe(true)
  })

  test.for([
    ['an empty environment', ''],
    ['a longer value', 'X=12'],
    ['a longer value in the middle', 'A=2\0X=12\0B=3'],
    ['a longer name', 'AX=1'],
    ['a longer name at the end', 'A=2\0AX=1'],
    ['a value that contains the entry', 'Y=X=1'],
    ['a different value', 'X=2\0A=1'],
  ] as const)('does not match %s', ([, environ]) => {
    expect(environContains(bytes(environ), entry)).toBe(false)
  })

  test('matches an entry with an empty value only as a whole entry', () => {
    expect(environContains(bytes('A=1\0X=\0B=2'), bytes('X='))).toBe(true)
    expect(environContains(bytes('A=1\0X=1\0B=2'), bytes('X='))).toBe(false)
  })
})

describe('readProcStat', () => {
  test("reads this process's own stat", () => {
    const result = readProcStat(process.pid)
    expect(result.status).toBe('ok')
    if (result.status !== 'ok') {
      return
    }
    expect(result.value.pid).toBe(process.pid)
    expect(result.value.ppid).toBe(process.ppid)
    expect(result.value.state).toMatch(/^[A-Za-z]$/)
    expect(result.value.startTicks).toBeGreaterThan(0)
  })

  test("reads the parent's stat, whose start precedes this process's", () => {
    const own = readProcStat(process.pid)
    const parent = readProcStat(process.ppid)
    expect(parent.status).toBe('ok')
    if (own.status !== 'ok' || parent.status !== 'ok') {
      return
    }
    expect(parent.value.pid).toBe(process.ppid)
    expect(parent.value.startTicks).toBeLessThanOrEqual(own.value.startTicks)
  })

  test('reports a process that does not exist as gone', () => {
    expect(readProcStat(NONEXISTENT_PID)).toEqual({ status: 'gone' })
  })
})

describe('readEnvironContains', () => {
  test("finds an entry of this process's initial environment", () => {
    const environ = readFileSync(`/proc/${process.pid}/environ`)
    const end = environ.indexOf(0)
    const entry = environ.subarray(0, end < 0 ? environ.length : end)
    expect(entry.length).toBeGreaterThan(0)
    expect(readEnvironContains(process.pid, entry)).toEqual({ status: 'ok', value: 'carries' })
  })

  test("does not find an entry absent from this process's environment", () => {
    expect(readEnvironContains(process.pid, bytes('REA_UNIT_TEST_ABSENT=1'))).toEqual({
      status: 'ok',
      value: 'lacks',
    })
  })

  test('reports a process that does not exist as gone', () => {
    expect(readEnvironContains(NONEXISTENT_PID, bytes('X=1'))).toEqual({ status: 'gone' })
  })

  test('tells an empty environment apart from one that lacks the entry', async () => {
    const child = spawn('sleep', ['30'], { env: {}, stdio: 'ignore' })
    try {
      await waitFor(() => readFileSync(`/proc/${child.pid!}/comm`, 'latin1').trim() === 'sleep')
      expect(readEnvironContains(child.pid!, bytes('X=1'))).toEqual({ status: 'ok', value: 'empty' })
    } finally {
      child.kill('SIGKILL')
    }
  })
})

describe('listProcessIds', () => {
  test('includes this process and its parent', () => {
    const pids = listProcessIds()
    expect(pids).toContain(process.pid)
    expect(pids).toContain(process.ppid)
    expect(pids.every((pid) => Number.isSafeInteger(pid) && pid > 0)).toBe(true)
  })
})

describe('readBootId', () => {
  test('returns the kernel boot id', () => {
    expect(readBootId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect(readBootId()).toBe(readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim())
  })
})

describe('readForkCount', () => {
  test("counts the host's task creations: a spawn moves it", async () => {
    const before = readForkCount()
    expect(Number.isSafeInteger(before)).toBe(true)
    const child = spawn('true', { stdio: 'ignore' })
    await new Promise((resolve) => child.once('exit', resolve))
    expect(readForkCount()).toBeGreaterThan(before as number)
  })
})
