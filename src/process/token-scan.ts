import { setTimeout as delay } from 'node:timers/promises'
import { readStartIdentity, sameIdentity, type StartIdentity } from './identity.js'
import { proveForeign, type CaptureBoundary } from './foreign-process.js'
import { processInspector, type ProcessInspector } from './inspector.js'
import type { EnvironCheck, ProcRead, ProcStat } from './proc-linux.js'
import { runTokenEntry } from './run-token.js'

export interface TokenHolder {
  readonly identity: StartIdentity
  /** Kernel command name, read after exec. */
  readonly command: string
  readonly stat: ProcStat
}

export interface UnreadableProcess {
  readonly pid: number
  readonly start_ticks: number
  readonly reason: string
}

export interface TokenScan {
  readonly holders: TokenHolder[]
  /**
   * Processes started since `startedSinceTicks` whose environment REA could not read, so it cannot tell
   * whether they carry the token.
   */
  readonly unreadable: UnreadableProcess[]
  /**
   * With `listRecent`: every live process started since `startedSinceTicks`, with the stat read in this scan,
   * the only members of the root's session or group that can be the capture's. Empty otherwise.
   */
  readonly recentProcesses: RecentProcess[]
  /**
   * With `listRecent`, where the host counts the tasks it creates: what a later scan needs to examine only the
   * processes this one found started since `startedSinceTicks`, as long as no task was created in between.
   */
  readonly listing?: CompleteListing
}

/**
 * A complete scan's list of the processes started since its `startedSinceTicks`, and the host's count of created
 * tasks read before it listed `/proc`. While that count stands still, every process alive was alive then, and so
 * was examined: the processes that started earlier were ruled out for good (ownership is decided by start time,
 * an environment fixed at exec, and a session or group that is only inherited), and only these need a new look.
 */
export interface CompleteListing {
  readonly forks: number
  readonly startedSinceTicks: number
  readonly recent: readonly number[]
}

export interface RecentProcess {
  readonly identity: StartIdentity
  readonly stat: ProcStat
}

export interface ScanOptions {
  /** Processes that started earlier cannot be the capture's. */
  readonly startedSinceTicks?: number
  /**
   * Read every process's stat first and list those started since (a session check needs them all), then read
   * only their environments. Without it, environments are read first: an environment that lacks the token
   * rules a process out with one read, and only the rest have their identity read.
   */
  readonly listRecent?: boolean
  /**
   * A complete listing of an earlier scan with the same `startedSinceTicks` (and `listRecent`): when no task was
   * created since it, only its recent processes are examined instead of every process on the host.
   */
  readonly previous?: CompleteListing
  /**
   * Where the capture's processes end: a process whose environment cannot be read but that is proven not to be
   * the capture's (see `proveForeign`) is not reported unreadable, and its identity is added to `foreign`, which
   * later scans pass over without reading it again.
   */
  readonly foreign?: { readonly boundary: CaptureBoundary; readonly known: Set<string> }
}

/** How a process is remembered across scans: its pid can be reused, its pid with its start time cannot. */
export function identityKey(pid: number, startTicks: number): string {
  return `${pid}:${startTicks}`
}

/**
 * An environment that reads empty, or cannot be read, may belong to a process caught between fork and exec:
 * look again this often, this many times. Inside execve the kernel reports the environment as empty for a
 * moment; before the exec a child still has its parent's memory and credentials, so the child of a process
 * REA may not read (a privileged service, another user's shell) is unreadable until it runs its own program.
 */
const ENVIRON_RECHECK_MS = 2
const ENVIRON_RECHECKS = 5

/** What one examination of a process decided: done, or read it again (empty, or unreadable for this reason). */
type Examination = 'done' | 'empty' | UnreadableProcess

/**
 * Finds every live process started since `startedSinceTicks` whose initial environment carries this capture's
 * token (one that started earlier cannot be the capture's: its environment was fixed before the token
 * existed). A carrier's environment is read between two identity reads, so a PID reused between the reads is
 * never attributed to the capture.
 */
export async function scanForRunToken(token: string, options: ScanOptions = {}): Promise<TokenScan> {
  const entry = Buffer.from(runTokenEntry(token))
  const scan: TokenScan = { holders: [], unreadable: [], recentProcesses: [] }
  const inspector = processInspector()
  if (inspector === undefined) {
    return scan
  }
  const startedSinceTicks = options.startedSinceTicks ?? 0
  // Read before listing: a process that started before this read is in the listing below if it still lives.
  const forks = options.listRecent === true ? inspector.forkCount?.() : undefined
  let undecided = new Map<number, Exclude<Examination, 'done'>>()
  const examine = (pid: number, known?: ProcRead<EnvironCheck>, again?: 'again'): void => {
    const examination = examineProcess(inspector, pid, entry, known, scan, options, again)
    if (examination !== 'done') {
      undecided.set(pid, examination)
    }
  }
  const previous = options.previous
  if (forks !== undefined && previous?.forks === forks && previous.startedSinceTicks === startedSinceTicks) {
    for (const pid of previous.recent) {
      examine(pid)
    }
  } else {
    examineEveryProcess(inspector, entry, examine)
  }
  for (let round = 0; round < ENVIRON_RECHECKS && undecided.size > 0; round++) {
    await delay(ENVIRON_RECHECK_MS)
    const pids = [...undecided.keys()]
    undecided = new Map()
    for (const pid of pids) {
      examine(pid, undefined, 'again')
    }
  }
  // Still empty after the rechecks: a process started with an empty environment, which carries no token.
  for (const examination of undecided.values()) {
    if (examination !== 'empty') {
      scan.unreadable.push(examination)
    }
  }
  if (forks === undefined) {
    return scan
  }
  const recent = scan.recentProcesses.map((process) => process.identity.pid)
  return { ...scan, listing: { forks, startedSinceTicks, recent } }
}

/**
 * Lists `/proc` and examines every process but REA itself. A holder that forks and exits between the listing and
 * its read would hide the child, which was not in the listing yet: list again and examine new PIDs until a
 * listing brings none, so the scan misses nobody that was alive throughout it.
 */
function examineEveryProcess(
  inspector: ProcessInspector,
  entry: Buffer,
  examine: (pid: number, known: ProcRead<EnvironCheck> | undefined) => void,
): void {
  const examined = new Set<number>([process.pid])
  for (;;) {
    // Where one read of every environment is cheaper than many (the macOS helper), it rules out most processes
    // before any identity is read.
    const bulk = inspector.readAllEnvirons?.(entry)
    const pids = (bulk === undefined ? inspector.listProcessIds() : [...bulk.keys()]).filter(
      (pid) => !examined.has(pid),
    )
    if (pids.length === 0) {
      return
    }
    for (const pid of pids) {
      examined.add(pid)
      examine(pid, bulk?.get(pid))
    }
  }
}

/**
 * Examines one process, adding it to the scan when it decides; returns what to read again otherwise (an empty
 * environment, or an unreadable one with the reason). `known` is what a bulk read already found; `again` marks
 * the re-read of a process already examined.
 */
function examineProcess(
  inspector: ProcessInspector,
  pid: number,
  entry: Buffer,
  known: ProcRead<EnvironCheck> | undefined,
  scan: TokenScan,
  options: ScanOptions,
  again?: 'again',
): Examination {
  const statFirst = options.listRecent === true && again === undefined
  const first = statFirst ? undefined : (known ?? inspector.readEnviron(pid, entry))
  if (
    first !== undefined &&
    (first.status === 'gone' || (first.status === 'ok' && first.value === 'lacks'))
  ) {
    return 'done'
  }
  const before = readStartIdentity(pid)
  if (before.status !== 'ok' || before.value.identity.start_ticks < (options.startedSinceTicks ?? 0)) {
    return 'done'
  }
  const foreign = options.foreign
  const key = identityKey(pid, before.value.identity.start_ticks)
  if (foreign?.known.has(key) === true) {
    return 'done'
  }
  if (statFirst) {
    scan.recentProcesses.push(before.value)
  }
  // Read (again) after the identity, so that a carrier is confirmed between two identity reads.
  const carries = inspector.readEnviron(pid, entry)
  if (carries.status === 'gone') {
    return 'done'
  }
  if (carries.status === 'unreadable') {
    if (foreign !== undefined && proveForeign(before.value.stat, foreign.boundary, inspector) !== undefined) {
      foreign.known.add(key)
      return 'done'
    }
    return {
      pid,
      start_ticks: before.value.identity.start_ticks,
      reason: `environment unreadable: ${carries.code}`,
    }
  }
  if (carries.value === 'lacks') {
    return 'done'
  }
  if (carries.value === 'empty') {
    // A process that started since the capture began may be one of its own, caught inside execve.
    return 'empty'
  }
  const after = readStartIdentity(pid)
  if (after.status === 'ok' && sameIdentity(before.value.identity, after.value.identity)) {
    scan.holders.push({
      identity: after.value.identity,
      command: after.value.stat.comm,
      stat: after.value.stat,
    })
  }
  return 'done'
}
