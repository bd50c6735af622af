import { readAdopters, type CaptureBoundary } from './foreign-process.js'
import { readStartIdentity, sameIdentity, type StartIdentity } from './identity.js'
import type { ProcessInspector } from './inspector.js'
import type { ProcStat } from './proc-linux.js'
import {
  scanForRunToken,
  type CompleteListing,
  type RecentProcess,
  type UnreadableProcess,
} from './token-scan.js'

/**
 * Why REA considers a process its own:
 * - `root`: the process it started (tracked by the identity read at the fork, also before exec);
 * - `token`: its environment carries the capture's run token;
 * - `lineage`: REA saw it as a child of an owned process (it started after that parent);
 * - `session`: it belongs to the root's session or process group and started after the root. Session and
 *   group membership are only inherited, so such a process descends from the root even if it cleared its
 *   environment and its parents are gone.
 */
export type Attribution = 'root' | 'token' | 'lineage' | 'session'

export interface OwnedProcess {
  readonly identity: StartIdentity
  readonly stat: ProcStat
  readonly attribution: Attribution
}

export interface UnreadableRelation extends UnreadableProcess {
  /** In the root's session or process group, or a child of an owned process: probably the capture's own. */
  readonly related: boolean
}

export interface TreeObservation {
  /** Owned processes alive now (zombies are gone). */
  readonly owned: OwnedProcess[]
  /** Processes started since the root whose environment REA could not read, so their token is unknown. */
  readonly unreadable: UnreadableRelation[]
}

export interface TreeRoot {
  /** Undefined when only the token is known (the supervisor, for a capture whose launch it never heard of). */
  readonly pid: number | undefined
  /** The identity read at the fork; undefined when the root was already gone. */
  readonly identity: StartIdentity | undefined
  /** Start time of the root in clock ticks: nothing that started earlier can be the capture's. */
  readonly startTicks: number
  /**
   * The host's count of created tasks read just before the root was spawned, where it is counted. A count that
   * did not grow over the root's own fork is not one to trust, and scans then always list every process.
   */
  readonly forksBeforeLaunch?: number
  /** How many tasks the spawn itself created (the root, and a thread of REA's that waits for it), where known. */
  readonly spawnTasks?: number
}

/**
 * What the launch itself tells about the host, as a complete scan would: when the task count read before the
 * spawn grew by exactly the spawn's own tasks, the root is the one process started since, and every other live
 * process was alive before it and cannot be the capture's. The first observation then examines the root alone
 * if the count still stands there; any other fork on the host, the root's included, moves it on, and the
 * observation lists every process as before.
 */
function launchListing(root: TreeRoot): CompleteListing | undefined {
  // A spawn that counted no task would leave a count that never moves looking like one that stood still.
  if (
    root.pid === undefined ||
    root.forksBeforeLaunch === undefined ||
    root.spawnTasks === undefined ||
    root.spawnTasks < 1
  ) {
    return undefined
  }
  // Also when the root's identity could not be read after the spawn (a short command is often gone by then):
  // looking at its PID again finds it gone, as a complete scan would.
  return {
    forks: root.forksBeforeLaunch + root.spawnTasks,
    startedSinceTicks: root.startTicks,
    recent: [root.pid],
  }
}

/**
 * The processes a capture owns, as far as REA can tell. Each observation scans for the run token, follows
 * children of every owned process, and (when asked, at settlement and cleanup) checks the root's session and
 * process group. Processes found once are followed by their identity while they live, so lineage seen in one
 * sample still counts after their parent exited.
 */
export class OwnedTree {
  readonly #token: string
  readonly #root: TreeRoot
  readonly #inspector: ProcessInspector
  #known = new Map<number, OwnedProcess>()
  #running: Promise<TreeObservation> | undefined
  /** The last scan's complete listing, once the host's task count is seen to count the root's fork. */
  #listing: CompleteListing | undefined
  readonly #boundary: CaptureBoundary
  /** Processes proven not to be the capture's (`proveForeign`), by identity: never read again. */
  readonly #foreign = new Set<string>()
  /** A member of each session made before the root, as scans saw them (see `SessionWitnesses`). */
  readonly #witnesses = new Map<number, { readonly pid: number; readonly startTicks: number }>()

  /** `adopters`: who may adopt an orphan of the capture (see `readAdopters`); read from this process by default. */
  constructor(
    token: string,
    root: TreeRoot,
    inspector: ProcessInspector,
    adopters = readAdopters(inspector),
  ) {
    this.#token = token
    this.#root = root
    this.#inspector = inspector
    if (root.identity !== undefined) {
      const stat = inspector.readStat(root.identity.pid)
      if (stat.status === 'ok') {
        this.#known.set(root.identity.pid, { identity: root.identity, stat: stat.value, attribution: 'root' })
      }
    }
    // Both PTY spawners call setsid in the child before exec, so the root leads a session of its own.
    this.#boundary = { rootStartTicks: root.startTicks, rootSessionId: root.pid, adopters }
    this.#listing = launchListing(root)
  }

  /** Observes the tree; concurrent callers share one observation, since each updates what is known. */
  observe(options: { readonly includeSession: boolean }): Promise<TreeObservation> {
    const previous = this.#running ?? Promise.resolve(undefined)
    const next = previous.then(() => this.#observe(options.includeSession))
    this.#running = next
    return next
  }

  async #observe(includeSession: boolean): Promise<TreeObservation> {
    // Where the host counts the tasks it creates, every scan lists the processes started since the root, so that
    // the next one can examine only those while no task is created (a command that exits before it starts
    // anything settles at that cost). Elsewhere running samples read environments first, in one bulk read where
    // the inspector has one (macOS), instead of one identity per process.
    const scan = await scanForRunToken(this.#token, {
      startedSinceTicks: this.#root.startTicks,
      listRecent: includeSession || this.#inspector.forkCount !== undefined,
      ...(this.#listing === undefined ? {} : { previous: this.#listing }),
      foreign: { boundary: this.#boundary, known: this.#foreign, witnesses: this.#witnesses },
    })
    const forksBeforeLaunch = this.#root.forksBeforeLaunch
    this.#listing =
      scan.listing !== undefined && forksBeforeLaunch !== undefined && scan.listing.forks > forksBeforeLaunch
        ? scan.listing
        : undefined
    const alive = new Map<number, OwnedProcess>()
    for (const holder of scan.holders) {
      if (holder.identity.start_ticks >= this.#root.startTicks || holder.identity.pid === this.#root.pid) {
        alive.set(holder.identity.pid, { identity: holder.identity, stat: holder.stat, attribution: 'token' })
      }
    }
    for (const [pid, known] of this.#known) {
      if (!alive.has(pid)) {
        const current = readStartIdentity(pid)
        if (current.status === 'ok' && sameIdentity(current.value.identity, known.identity)) {
          alive.set(pid, { ...known, stat: current.value.stat })
        }
      }
    }
    this.#followChildren(alive)
    if (includeSession) {
      this.#addSessionMembers(alive, scan.recentProcesses)
      this.#followChildren(alive)
    }
    this.#known = alive
    // The scan reports only processes started since the root.
    const unreadable = scan.unreadable
      .filter((process) => !alive.has(process.pid))
      .map((process) => ({ ...process, related: this.#isRelated(process.pid, alive) }))
    return { owned: [...alive.values()], unreadable }
  }

  /** Adds every child of an owned process, transitively; a child cannot have started before its parent. */
  #followChildren(alive: Map<number, OwnedProcess>): void {
    const queue = [...alive.values()]
    for (let parent = queue.shift(); parent !== undefined; parent = queue.shift()) {
      for (const pid of this.#inspector.readChildren(parent.identity.pid)) {
        if (alive.has(pid)) {
          continue
        }
        const child = readStartIdentity(pid)
        if (
          child.status === 'ok' &&
          child.value.stat.ppid === parent.identity.pid &&
          child.value.identity.start_ticks >= parent.identity.start_ticks
        ) {
          const owned: OwnedProcess = {
            identity: child.value.identity,
            stat: child.value.stat,
            attribution: 'lineage',
          }
          alive.set(pid, owned)
          queue.push(owned)
        }
      }
    }
  }

  /**
   * Members of the root's session or process group that started after the root, from the processes the scan
   * found started since the root (with the stat it read).
   */
  #addSessionMembers(alive: Map<number, OwnedProcess>, candidates: readonly RecentProcess[]): void {
    const rootPid = this.#root.pid
    if (rootPid === undefined) {
      return
    }
    // Linux never hands out a PID still used as a session or group ID. So if the root's PID now belongs to
    // another process, no member of the root's session is left, and that ID names someone else's session.
    const holder = readStartIdentity(rootPid)
    const rootIdentity = this.#root.identity
    if (
      holder.status === 'ok' &&
      (rootIdentity === undefined || !sameIdentity(holder.value.identity, rootIdentity))
    ) {
      return
    }
    for (const { identity, stat } of candidates) {
      if (alive.has(identity.pid) || identity.pid === process.pid) {
        continue
      }
      if ((stat.sid !== rootPid && stat.pgid !== rootPid) || identity.start_ticks < this.#root.startTicks) {
        continue
      }
      // A member is read again: it may have exited since the scan.
      const current = readStartIdentity(identity.pid)
      if (current.status === 'ok' && sameIdentity(current.value.identity, identity)) {
        alive.set(identity.pid, { identity, stat: current.value.stat, attribution: 'session' })
      }
    }
  }

  #isRelated(pid: number, alive: Map<number, OwnedProcess>): boolean {
    const stat = this.#inspector.readStat(pid)
    if (stat.status !== 'ok') {
      return false
    }
    const rootPid = this.#root.pid
    return stat.value.sid === rootPid || stat.value.pgid === rootPid || alive.has(stat.value.ppid)
  }
}
