import { processInspector } from './inspector.js'
import type { ProcRead, ProcStat } from './proc-linux.js'

/** Who a PID belonged to when REA looked: a PID alone can be reused by an unrelated process. */
export interface StartIdentity {
  readonly pid: number
  /** Start time in clock ticks (10 ms) since boot: `/proc/PID/stat` field 22 on Linux. */
  readonly start_ticks: number
  readonly boot_id: string
}

export function sameIdentity(a: StartIdentity, b: StartIdentity): boolean {
  return a.pid === b.pid && a.start_ticks === b.start_ticks && a.boot_id === b.boot_id
}

/** Reads a live process's identity; a zombie counts as gone (PID 1 here reaps orphans only after ~2 s). */
export function readStartIdentity(pid: number): ProcRead<{ identity: StartIdentity; stat: ProcStat }> {
  const inspector = processInspector()
  if (inspector === undefined) {
    return { status: 'unreadable', code: 'UNSUPPORTED_PLATFORM' }
  }
  const stat = inspector.readStat(pid)
  if (stat.status !== 'ok') {
    return stat
  }
  if (stat.value.state === 'Z' || stat.value.state === 'X') {
    return { status: 'gone' }
  }
  return {
    status: 'ok',
    value: {
      identity: { pid, start_ticks: stat.value.startTicks, boot_id: inspector.bootId() },
      stat: stat.value,
    },
  }
}
