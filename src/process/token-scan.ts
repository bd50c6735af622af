import { setTimeout as delay } from 'node:timers/promises'
import { readStartIdentity, sameIdentity, type StartIdentity } from './identity.js'
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
  readonly start_ticks: number | null
  readonly reason: string
}

export interface TokenScan {
  readonly holders: TokenHolder[]
  /** Live processes whose environment REA could not read, so it cannot tell whether they carry the token. */
  readonly unreadable: UnreadableProcess[]
  /** Every process that has an environment (kernel threads have none): the only possible session members. */
  readonly userProcessIds: number[]
}

export interface ScanOptions {
  /** Processes that started earlier cannot be the capture's; an empty environment among them is not re-read. */
  readonly startedSinceTicks?: number
}

/** An environment that reads empty may belong to a process inside execve: look again this often, this many times. */
const EMPTY_ENVIRON_RECHECK_MS = 2
const EMPTY_ENVIRON_RECHECKS = 5

/**
 * Finds every live process whose initial environment carries this capture's token. Environments are read
 * first (reading `/proc/PID/stat` costs several times more, and most processes are not ours); for each
 * carrier the identity is read, the token re-read, and the identity read again, so a PID reused between the
 * reads is never attributed to the capture.
 */
export async function scanForRunToken(token: string, options: ScanOptions = {}): Promise<TokenScan> {
  const startedSinceTicks = options.startedSinceTicks ?? 0
  const entry = Buffer.from(runTokenEntry(token))
  const scan: TokenScan = { holders: [], unreadable: [], userProcessIds: [] }
  const inspector = processInspector()
  if (inspector === undefined) {
    return scan
  }
  const examined = new Set<number>([process.pid])
  let recheck: number[] = []
  // A holder that forks and exits between the listing and its read would hide the child, which was not in
  // the listing yet: list again and examine new PIDs until a listing brings none, so the scan misses nobody
  // that was alive throughout it.
  for (;;) {
    const bulk = inspector.readAllEnvirons?.(entry)
    const pids = (bulk === undefined ? inspector.listProcessIds() : [...bulk.keys()]).filter(
      (pid) => !examined.has(pid),
    )
    if (pids.length === 0) {
      break
    }
    for (const pid of pids) {
      examined.add(pid)
      const first = bulk?.get(pid) ?? inspector.readEnviron(pid, entry)
      if (examineProcess(inspector, pid, entry, first, scan, startedSinceTicks) === 'empty') {
        recheck.push(pid)
      }
    }
  }
  for (let round = 0; round < EMPTY_ENVIRON_RECHECKS && recheck.length > 0; round++) {
    await delay(EMPTY_ENVIRON_RECHECK_MS)
    recheck = recheck.filter(
      (pid) =>
        examineProcess(inspector, pid, entry, inspector.readEnviron(pid, entry), scan, startedSinceTicks) ===
        'empty',
    )
  }
  // A process read again after an empty environment was listed each time.
  return { ...scan, userProcessIds: [...new Set(scan.userProcessIds)] }
}

/** Examines one process, adding it to the scan; returns 'empty' when its environment must be read again. */
function examineProcess(
  inspector: ProcessInspector,
  pid: number,
  entry: Buffer,
  carries: ProcRead<EnvironCheck>,
  scan: TokenScan,
  startedSinceTicks: number,
): 'done' | 'empty' {
  if (carries.status === 'gone') {
    return 'done'
  }
  scan.userProcessIds.push(pid)
  if (carries.status === 'ok' && carries.value === 'lacks') {
    return 'done'
  }
  const before = readStartIdentity(pid)
  if (before.status !== 'ok') {
    return 'done'
  }
  if (carries.status === 'unreadable') {
    scan.unreadable.push({
      pid,
      start_ticks: before.value.identity.start_ticks,
      reason: `environment unreadable: ${carries.code}`,
    })
    return 'done'
  }
  if (carries.value === 'empty') {
    // Only a process that started since the capture began can be one of its own, caught inside execve.
    return before.value.identity.start_ticks >= startedSinceTicks ? 'empty' : 'done'
  }
  const confirmed = inspector.readEnviron(pid, entry)
  const after = readStartIdentity(pid)
  if (
    confirmed.status === 'ok' &&
    confirmed.value === 'carries' &&
    after.status === 'ok' &&
    sameIdentity(before.value.identity, after.value.identity)
  ) {
    scan.holders.push({
      identity: after.value.identity,
      command: after.value.stat.comm,
      stat: after.value.stat,
    })
  }
  return 'done'
}
