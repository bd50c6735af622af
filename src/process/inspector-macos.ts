import type { ProcessInspector } from './inspector.js'
import {
  macosBootSchema,
  macosSingleSchema,
  macosSnapshotSchema,
  parseHelperOutput,
  type HelperRunner,
  type MacosProcessRecord,
  type MacosSnapshot,
} from './macos-helper.js'
import type { EnvironCheck, ProcRead, ProcStat } from './proc-linux.js'
import { monotonicNow } from '../internal/monotonic-clock.js'

/** A whole-table snapshot answers children and listing questions for this long. */
const SNAPSHOT_FRESH_MS = 20

function toStat(record: MacosProcessRecord): ProcStat {
  return {
    pid: record.pid,
    comm: record.comm,
    state: record.state,
    ppid: record.ppid,
    pgid: record.pgid,
    sid: record.sid,
    startTicks: record.start_ticks,
    // The helper lists user processes; the kernel's own task (pid 0) is never among them.
    kernelThread: false,
  }
}

function toEnviron(record: MacosProcessRecord): ProcRead<EnvironCheck> {
  return record.environ === 'unreadable'
    ? { status: 'unreadable', code: record.environ_error ?? 'UNKNOWN' }
    : { status: 'ok', value: record.environ }
}

/**
 * The macOS inspector, answering through REA's compiled helper. Identity and token questions about one
 * process ask the helper fresh, since they guard signals; listings and children come from a whole-table
 * snapshot at most {@link SNAPSHOT_FRESH_MS} old. Unverified on real macOS hardware: see docs/platforms.md.
 */
export function createMacosInspector(run: HelperRunner): ProcessInspector {
  const boot = parseHelperOutput(macosBootSchema, run(['boot']), 'boot')
  let snapshot: { readonly takenAt: number; readonly value: MacosSnapshot } | undefined
  const table = (): MacosSnapshot => {
    if (snapshot === undefined || monotonicNow() - snapshot.takenAt > SNAPSHOT_FRESH_MS) {
      snapshot = {
        takenAt: monotonicNow(),
        value: parseHelperOutput(macosSnapshotSchema, run(['snapshot', '-']), 'snapshot'),
      }
    }
    return snapshot.value
  }
  const single = (pid: number, entry: string) =>
    parseHelperOutput(macosSingleSchema, run(['process', String(pid), entry]), 'process')
  return {
    name: 'macos-helper',
    readStat(pid) {
      const result = single(pid, '-')
      return result.process === undefined
        ? { status: 'gone' }
        : { status: 'ok', value: toStat(result.process) }
    },
    readEnviron(pid, entry) {
      const result = single(pid, entry.toString('utf8'))
      return result.process === undefined ? { status: 'gone' } : toEnviron(result.process)
    },
    readAllEnvirons(entry) {
      const result = parseHelperOutput(
        macosSnapshotSchema,
        run(['snapshot', entry.toString('utf8')]),
        'snapshot',
      )
      snapshot = { takenAt: monotonicNow(), value: result }
      return new Map(result.processes.map((record) => [record.pid, toEnviron(record)]))
    },
    listProcessIds: () => table().processes.map((record) => record.pid),
    readChildren: (pid) =>
      table()
        .processes.filter((record) => record.ppid === pid)
        .map((record) => record.pid),
    bootId: () => boot.boot_id,
    uptimeTicks: () => parseHelperOutput(macosBootSchema, run(['boot']), 'boot').now_ticks,
  }
}
