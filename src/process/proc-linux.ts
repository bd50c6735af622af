import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs'

/** The fields of `/proc/PID/stat` REA uses. */
export interface ProcStat {
  readonly pid: number
  /** Command name as the kernel keeps it (at most 15 bytes), read after exec. */
  readonly comm: string
  /** One-letter state; `Z` is a zombie, which REA treats as gone. */
  readonly state: string
  readonly ppid: number
  readonly pgid: number
  readonly sid: number
  /** Start time in clock ticks since boot (CLK_TCK is 100 on Linux, so 10 ms resolution). */
  readonly startTicks: number
  /** A kernel thread (`PF_KTHREAD` in the stat flags): never a process a capture started. */
  readonly kernelThread: boolean
}

export type ProcRead<T> =
  | { readonly status: 'ok'; readonly value: T }
  | { readonly status: 'gone' }
  | { readonly status: 'unreadable'; readonly code: string }

const GONE = { status: 'gone' } as const

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'UNKNOWN'
}

/** ENOENT and ESRCH both mean the process no longer exists (ESRCH: it is exiting, environ is gone). */
function readFailure(error: unknown): ProcRead<never> {
  const code = errorCode(error)
  return code === 'ENOENT' || code === 'ESRCH' ? GONE : { status: 'unreadable', code }
}

/** The fields after the command name that REA reads, by position (0 is the state, 19 the start time). */
const STAT_FIELDS = { state: 0, ppid: 1, pgid: 2, sid: 3, flags: 6, startTicks: 19 } as const
/** `PF_KTHREAD` in the per-process flags (include/linux/sched.h): the task is a kernel thread. */
const PF_KTHREAD = 0x00200000

export function parseProcStat(pid: number, text: string): ProcStat | undefined {
  // comm may contain spaces and parentheses, so the fields start after the last ')'. A scan parses every
  // process's stat, so the fields are walked to the start time instead of splitting all 50 of them.
  const open = text.indexOf('(')
  const close = text.lastIndexOf(')')
  if (open < 0 || close < open) {
    return undefined
  }
  const fields: string[] = []
  let from = close + 2
  while (fields.length <= STAT_FIELDS.startTicks && from <= text.length) {
    const space = text.indexOf(' ', from)
    const end = space < 0 ? text.length : space
    fields.push(text.slice(from, end))
    from = end + 1
  }
  const state = fields[STAT_FIELDS.state]
  const numbers = [
    STAT_FIELDS.ppid,
    STAT_FIELDS.pgid,
    STAT_FIELDS.sid,
    STAT_FIELDS.flags,
    STAT_FIELDS.startTicks,
  ].map((index) => (index < fields.length && fields[index] !== '' ? Number(fields[index]) : Number.NaN))
  const [ppid, pgid, sid, flags, startTicks] = numbers
  if (
    state === undefined ||
    ppid === undefined ||
    pgid === undefined ||
    sid === undefined ||
    flags === undefined ||
    startTicks === undefined ||
    numbers.some((value) => !Number.isSafeInteger(value))
  ) {
    return undefined
  }
  // The flags are an unsigned 32-bit word: test the bit on the number, not with `&` on a possibly negative int.
  const kernelThread = Math.floor(flags / PF_KTHREAD) % 2 === 1
  return { pid, comm: text.slice(open + 1, close), state, ppid, pgid, sid, startTicks, kernelThread }
}

let scratch = Buffer.allocUnsafe(64 * 1024)

/**
 * Reads a /proc file into a buffer shared by all reads (a scan reads hundreds of them; `readFileSync` allocates
 * and stats each one). The returned view is only valid until the next call. `oneRecord`: the file is a single
 * record the kernel hands over in one read (`stat`), so a read that leaves the buffer unfilled is the end of it
 * and the read that would return 0 is saved (one system call of four per process in a settlement scan). Lists
 * (`children`) and `environ` may come in several reads, so they are read until one returns 0.
 */
function readProcFile(path: string, oneRecord = false): Buffer {
  const fd = openSync(path, 'r')
  try {
    let length = 0
    for (;;) {
      if (length === scratch.length) {
        const grown = Buffer.allocUnsafe(scratch.length * 2)
        scratch.copy(grown)
        scratch = grown
      }
      const read = readSync(fd, scratch, length, scratch.length - length, null)
      length += read
      if (read === 0 || (oneRecord && length < scratch.length)) {
        return scratch.subarray(0, length)
      }
    }
  } finally {
    closeSync(fd)
  }
}

export function readProcStat(pid: number): ProcRead<ProcStat> {
  let text: string
  try {
    text = readProcFile(`/proc/${pid}/stat`, true).toString('latin1')
  } catch (error) {
    return readFailure(error)
  }
  const stat = parseProcStat(pid, text)
  return stat === undefined ? { status: 'unreadable', code: 'EPARSE' } : { status: 'ok', value: stat }
}

/**
 * Whether the process's initial environment holds `entry` exactly (`NAME=value`). `empty` is not proof of
 * absence: while a process is inside execve the kernel reports its environment as empty for a moment.
 */
export type EnvironCheck = 'carries' | 'lacks' | 'empty'

export function readEnvironContains(pid: number, entry: Buffer): ProcRead<EnvironCheck> {
  try {
    const environ = readProcFile(`/proc/${pid}/environ`)
    return {
      status: 'ok',
      value: environ.length === 0 ? 'empty' : environContains(environ, entry) ? 'carries' : 'lacks',
    }
  } catch (error) {
    return readFailure(error)
  }
}

/** The environ block is NUL-separated `NAME=value` entries; match whole entries only. */
export function environContains(environ: Buffer, entry: Buffer): boolean {
  let from = 0
  for (;;) {
    const at = environ.indexOf(entry, from)
    if (at < 0) {
      return false
    }
    const startsEntry = at === 0 || environ[at - 1] === 0
    const end = at + entry.length
    if (startsEntry && (end === environ.length || environ[end] === 0)) {
      return true
    }
    from = at + 1
  }
}

export function listProcessIds(): number[] {
  const pids: number[] = []
  for (const name of readdirSync('/proc')) {
    const first = name.charCodeAt(0)
    if (first >= 48 && first <= 57) {
      const pid = Number(name)
      if (Number.isSafeInteger(pid)) {
        pids.push(pid)
      }
    }
  }
  return pids
}

let bootId: string | undefined

/** Identifies this boot, so a start time from another boot never matches. */
export function readBootId(): string {
  bootId ??= readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
  return bootId
}

/**
 * The PIDs of a process's children, from `/proc/PID/task/TID/children` of each of its threads (a child is
 * listed under the thread that forked it). Empty when the process is gone.
 */
export function readChildren(pid: number): number[] {
  let threads: string[]
  try {
    threads = readdirSync(`/proc/${pid}/task`)
  } catch {
    // Gone, or not ours to list: no children to report.
    return []
  }
  const children: number[] = []
  for (const thread of threads) {
    let text: string
    try {
      text = readProcFile(`/proc/${pid}/task/${thread}/children`).toString('latin1')
    } catch {
      // The thread ended between the listing and the read.
      continue
    }
    for (const field of text.split(' ')) {
      const child = Number(field)
      if (field !== '' && Number.isSafeInteger(child)) {
        children.push(child)
      }
    }
  }
  return children
}

/**
 * Tasks the kernel has created since boot, processes and threads alike, on the whole host (the `processes` line
 * of `/proc/stat`, counted under the same lock that makes a new task visible). Undefined when it cannot be read.
 */
export function readForkCount(): number | undefined {
  let text: string
  try {
    text = readProcFile('/proc/stat').toString('latin1')
  } catch {
    return undefined
  }
  const line = /^processes (\d+)$/m.exec(text)
  const count = line === null ? Number.NaN : Number(line[1])
  return Number.isSafeInteger(count) ? count : undefined
}

/** Clock ticks since boot now, the unit of start times (CLK_TCK is 100 on Linux). */
export function readUptimeTicks(): number {
  return Math.floor(Number(readFileSync('/proc/uptime', 'latin1').split(' ')[0]) * 100)
}
