import {
  listProcessIds,
  readBootId,
  readChildren,
  readEnvironContains,
  readForkCount,
  readProcStat,
  readUptimeTicks,
  type EnvironCheck,
  type ProcRead,
  type ProcStat,
} from './proc-linux.js'

/**
 * How REA reads the process table: `/proc` on Linux, REA's compiled helper on macOS. Every question about
 * processes (identity, token, children) goes through the active inspector.
 */
export interface ProcessInspector {
  readonly name: string
  readStat(pid: number): ProcRead<ProcStat>
  readEnviron(pid: number, entry: Buffer): ProcRead<EnvironCheck>
  /**
   * Every process's environment checked for `entry` at once, where one read is cheaper than many (the macOS
   * helper); undefined where reading one process at a time is the cheaper way (`/proc`).
   */
  readAllEnvirons?(entry: Buffer): Map<number, ProcRead<EnvironCheck>>
  listProcessIds(): number[]
  readChildren(pid: number): number[]
  bootId(): string
  /** Clock ticks (10 ms) since boot now, the unit of start times. */
  uptimeTicks(): number
  /**
   * Tasks created on the host since boot, where the system counts them (`/proc/stat`): while it stands still, no
   * process was started, so a scan can examine only the processes an earlier complete scan found.
   */
  forkCount?(): number | undefined
}

export const procInspector: ProcessInspector = {
  name: '/proc',
  readStat: readProcStat,
  readEnviron: readEnvironContains,
  listProcessIds,
  readChildren,
  bootId: readBootId,
  uptimeTicks: readUptimeTicks,
  forkCount: readForkCount,
}

let active: ProcessInspector | undefined = process.platform === 'linux' ? procInspector : undefined

/** The inspector for this host, or undefined where REA cannot inspect processes (yet). */
export function processInspector(): ProcessInspector | undefined {
  return active
}

/** Installs the macOS inspector once its helper is compiled. */
export function useProcessInspector(inspector: ProcessInspector): void {
  active = inspector
}
