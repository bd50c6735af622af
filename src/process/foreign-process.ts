import type { StartIdentity } from './identity.js'
import type { ProcessInspector } from './inspector.js'
import type { ProcStat } from './proc-linux.js'

/**
 * Why a process whose environment REA cannot read is proven not to be the capture's, from facts anyone may read
 * in `/proc/PID/stat`:
 * - `kernel_thread`: the kernel's own task (`PF_KTHREAD`, or a child of kthreadd); no program starts one;
 * - `ancestry`: its parents lead to a process that started before the capture and that cannot have adopted an
 *   orphan of the capture;
 * - `session`: it belongs to a session made before the capture: its leader, or another member a scan saw, is alive
 *   and started before the capture; or the session is not one of REA's PID namespace (session id 0).
 */
export type ForeignProof = 'kernel_thread' | 'ancestry' | 'session'

/** What a capture's processes can be told apart by: when its root started, its session, who may adopt them. */
export interface CaptureBoundary {
  /** Start time of the root in clock ticks: every process of the capture started since. */
  readonly rootStartTicks: number
  /** The root's session id: both PTY spawners call setsid, so it is the root's pid. */
  readonly rootSessionId: number | undefined
  /**
   * The processes that may adopt an orphan of the capture: Linux hands an orphan to the nearest living
   * child-subreaper among its ancestors, else to init. A capture's processes descend from the root, so outside
   * the capture only the root's own ancestors (REA and those above it, read at the launch) and init qualify.
   */
  readonly adopters: readonly StartIdentity[]
}

/**
 * A member of each session made before the capture's root, by session id, as scans saw them (the oldest): one
 * living member proves the session was made before the root even when its leader is gone. Checked again (pid,
 * start time, session) before it counts, since a session id is free for reuse once its last member is gone.
 */
export type SessionWitnesses = ReadonlyMap<number, { readonly pid: number; readonly startTicks: number }>

/** kthreadd, the parent of every kernel thread but itself. */
const KTHREADD_PID = 2
/** Parent chains are a few processes deep; a walk this long has met a loop of reused pids. */
const MAX_ANCESTRY_STEPS = 64

/**
 * The processes that may adopt an orphan of a capture whose root REA starts from this process: this process, its
 * ancestors, and init. Read once, before the launch.
 */
export function readAdopters(inspector: ProcessInspector, startPid: number = process.pid): StartIdentity[] {
  const adopters: StartIdentity[] = []
  let pid = startPid
  for (let step = 0; step < MAX_ANCESTRY_STEPS && pid >= 1; step++) {
    const stat = inspector.readStat(pid)
    if (stat.status !== 'ok') {
      break
    }
    adopters.push({ pid, start_ticks: stat.value.startTicks, boot_id: inspector.bootId() })
    if (pid === 1) {
      return adopters
    }
    pid = stat.value.ppid
  }
  // A chain cut short (a parent that exited meanwhile) still ends at init, which adopts every orphan.
  const init = inspector.readStat(1)
  if (init.status === 'ok' && !adopters.some((adopter) => adopter.pid === 1)) {
    adopters.push({ pid: 1, start_ticks: init.value.startTicks, boot_id: inspector.bootId() })
  }
  return adopters
}

/**
 * Proves, where the facts allow it, that a process started during the capture is not the capture's, though its
 * environment (and so its run token) cannot be read; undefined when it could be the capture's. `stat` is the
 * process's stat as the scan read it.
 *
 * A process of the capture descends from the root: following its parents leads through processes of the capture
 * (all started since the root) to the root, whose parent is REA, or to a process that adopted an orphan of the
 * capture (REA's ancestors, init). So a parent chain that reaches a process started before the root, and meets
 * none of those first, cannot be the capture's. Its session proves the same without the chain: sessions are only
 * inherited or created with setsid, Linux never reuses a pid that still names a session, and the root made a
 * session of its own; a session with a living member (its leader, or a `witnesses` entry) that started before the
 * root was made by someone else. `witnesses` are the scans' old members, by session.
 */
export function proveForeign(
  stat: ProcStat,
  boundary: CaptureBoundary,
  inspector: ProcessInspector,
  witnesses: SessionWitnesses = new Map(),
): ForeignProof | undefined {
  if (stat.kernelThread || stat.ppid === KTHREADD_PID || stat.pid === KTHREADD_PID) {
    return 'kernel_thread'
  }
  const facts = { boundary, inspector, witnesses }
  if (foreignSession(stat, facts)) {
    return 'session'
  }
  return foreignAncestry(stat, facts) ? 'ancestry' : undefined
}

interface Facts {
  readonly boundary: CaptureBoundary
  readonly inspector: ProcessInspector
  readonly witnesses: SessionWitnesses
}

/**
 * Whether the process's session was made before the root. Every session of the capture was made by the root or a
 * descendant (the root made its own), so it is named by a pid of the capture, visible here.
 */
function foreignSession(stat: ProcStat, facts: Facts): boolean {
  const { boundary, inspector } = facts
  const sessionId = stat.sid
  if (boundary.rootSessionId === undefined || sessionId === boundary.rootSessionId || sessionId < 0) {
    return false
  }
  if (sessionId === 0) {
    // /proc shows 0 for init's own session and for one made outside this PID namespace: neither is a session the
    // capture made. (The macOS helper's 0 means no more than "not read".)
    return inspector.name === '/proc'
  }
  if (sessionId === stat.pid) {
    // A session leader started during the capture: who made the session is the question the ancestry answers.
    return false
  }
  const witness = facts.witnesses.get(sessionId)
  return (
    startedBeforeRootIn(sessionId, sessionId, facts) ||
    (witness !== undefined && startedBeforeRootIn(witness.pid, sessionId, facts, witness.startTicks))
  )
}

/** Whether `pid` is alive, in session `sessionId`, started before the root (and at `startTicks`, when given). */
function startedBeforeRootIn(pid: number, sessionId: number, facts: Facts, startTicks?: number): boolean {
  const member = facts.inspector.readStat(pid)
  return (
    member.status === 'ok' &&
    member.value.sid === sessionId &&
    member.value.state !== 'Z' &&
    member.value.startTicks < facts.boundary.rootStartTicks &&
    (startTicks === undefined || member.value.startTicks === startTicks)
  )
}

function foreignAncestry(stat: ProcStat, facts: Facts): boolean {
  const { boundary, inspector } = facts
  let child = stat
  for (let step = 0; step < MAX_ANCESTRY_STEPS; step++) {
    const parentPid = child.ppid
    if (parentPid <= 1) {
      return false
    }
    const parent = inspector.readStat(parentPid)
    // A parent younger than its child is a reused pid: the chain is broken, nothing is proven.
    if (parent.status !== 'ok' || parent.value.startTicks > child.startTicks || parent.value.state === 'Z') {
      return false
    }
    if (isAdopter(parentPid, parent.value.startTicks, boundary)) {
      return false
    }
    // A parent that is not the capture's and cannot have adopted one of its orphans forked this process itself.
    if (
      parent.value.kernelThread ||
      parent.value.startTicks < boundary.rootStartTicks ||
      foreignSession(parent.value, facts)
    ) {
      return true
    }
    child = parent.value
  }
  return false
}

function isAdopter(pid: number, startTicks: number, boundary: CaptureBoundary): boolean {
  return boundary.adopters.some((adopter) => adopter.pid === pid && adopter.start_ticks === startTicks)
}
