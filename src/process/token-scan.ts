import { readStartIdentity, sameIdentity, type StartIdentity } from './identity.js'
import { listProcessIds, readEnvironContains } from './proc-linux.js'
import { runTokenEntry } from './run-token.js'

export interface TokenHolder {
  readonly identity: StartIdentity
  /** Kernel command name, read after exec. */
  readonly command: string
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
}

/**
 * Finds every live process whose initial environment carries this capture's token. Environments are read
 * first (reading `/proc/PID/stat` costs several times more, and most processes are not ours); for each
 * carrier the identity is read, the token re-read, and the identity read again, so a PID reused between the
 * reads is never attributed to the capture.
 */
export function scanForRunToken(token: string): TokenScan {
  const entry = Buffer.from(runTokenEntry(token))
  const holders: TokenHolder[] = []
  const unreadable: UnreadableProcess[] = []
  const examined = new Set<number>([process.pid])
  // A holder that forks and exits between the listing and its read would hide the child, which was not in
  // the listing yet: list again and examine new PIDs until a listing brings none, so the scan misses nobody
  // that was alive throughout it.
  for (
    let pids = listProcessIds();
    pids.length > 0;
    pids = listProcessIds().filter((pid) => !examined.has(pid))
  ) {
    for (const pid of pids) {
      examined.add(pid)
      examineProcess(pid, entry, holders, unreadable)
    }
  }
  return { holders, unreadable }
}

function examineProcess(
  pid: number,
  entry: Buffer,
  holders: TokenHolder[],
  unreadable: UnreadableProcess[],
): void {
  const carries = readEnvironContains(pid, entry)
  if (carries.status === 'gone' || (carries.status === 'ok' && !carries.value)) {
    return
  }
  const before = readStartIdentity(pid)
  if (before.status !== 'ok') {
    return
  }
  if (carries.status === 'unreadable') {
    unreadable.push({
      pid,
      start_ticks: before.value.identity.start_ticks,
      reason: `environment unreadable: ${carries.code}`,
    })
    return
  }
  const confirmed = readEnvironContains(pid, entry)
  const after = readStartIdentity(pid)
  if (
    confirmed.status === 'ok' &&
    confirmed.value &&
    after.status === 'ok' &&
    sameIdentity(before.value.identity, after.value.identity)
  ) {
    holders.push({ identity: after.value.identity, command: after.value.stat.comm })
  }
}
