import { setTimeout as delay } from 'node:timers/promises'
import { readStartIdentity, sameIdentity, type StartIdentity } from './identity.js'
import type {
  Attribution,
  OwnedProcess,
  OwnedTree,
  TreeObservation,
  UnreadableRelation,
} from './owned-tree.js'
import { sendCheckedSignal, type SignalDelivery } from './signal.js'
import { createMonotonicClock, monotonicNow } from '../internal/monotonic-clock.js'

/** How long cleanup waits for killed processes to disappear before calling the result incomplete. */
export const CLEANUP_CONFIRM_MS = 2000
const CLEANUP_POLL_MS = 2
/** New owned processes can appear while cleanup runs (a parent forking before its kill lands): look again. */
const MAX_CLEANUP_ROUNDS = 8

export interface KilledProcess {
  readonly pid: number
  readonly start_ticks: number
  readonly command: string
  readonly attribution: Attribution
  readonly delivery: SignalDelivery
  readonly reason?: string
  /** Whether REA saw the process gone (or a zombie) after the kill. */
  readonly confirmed_gone: boolean
}

export type OwnedCleanupStatus = 'not_needed' | 'completed' | 'incomplete' | 'unsupported'

export interface OwnedCleanupResult {
  readonly status: OwnedCleanupStatus
  readonly processes: KilledProcess[]
  /** Started since the root, not related to it, environment unreadable: left untouched. */
  readonly unverified: UnreadableRelation[]
  /** Related to the root but with an unreadable environment: they prevent a `completed` status. */
  readonly unexplained: UnreadableRelation[]
  readonly elapsed_ms: number
}

/**
 * Owned-process cleanup, the one path for a normal exit, deadlines and cancellation. Every owned process
 * (run token, lineage, the root's session and group) is killed through the identity-checked signal and
 * confirmed gone; it repeats while new owned processes appear. Processes started since the root whose
 * environment cannot be read are never signalled: unrelated ones are reported, related ones make the
 * cleanup incomplete.
 *
 * `startingObservation` may be settlement's last observation: a complete observation that found nothing owned
 * leaves nothing to find, since owned processes are only started by owned processes.
 */
export async function cleanUpOwnedProcesses(
  tree: OwnedTree | undefined,
  startingObservation?: TreeObservation,
): Promise<OwnedCleanupResult> {
  const clock = createMonotonicClock()
  if (tree === undefined) {
    return { status: 'unsupported', processes: [], unverified: [], unexplained: [], elapsed_ms: 0 }
  }
  const processes: KilledProcess[] = []
  let observation = startingObservation ?? (await tree.observe({ includeSession: true }))
  for (let round = 0; round < MAX_CLEANUP_ROUNDS && observation.owned.length > 0; round++) {
    processes.push(...(await killAndConfirm(observation.owned)))
    observation = await tree.observe({ includeSession: true })
  }
  const unverified = observation.unreadable.filter((process) => !process.related)
  const unexplained = observation.unreadable.filter((process) => process.related)
  const clean =
    observation.owned.length === 0 &&
    processes.every((entry) => entry.confirmed_gone) &&
    unexplained.length === 0
  return {
    status: processes.length === 0 && clean ? 'not_needed' : clean ? 'completed' : 'incomplete',
    processes,
    unverified,
    unexplained,
    elapsed_ms: Math.round(clock.preciseMs()),
  }
}

async function killAndConfirm(owned: readonly OwnedProcess[]): Promise<KilledProcess[]> {
  const signalled = owned.map((process) => ({
    process,
    outcome: sendCheckedSignal(process.identity, 'SIGKILL'),
  }))
  const deadline = monotonicNow() + CLEANUP_CONFIRM_MS
  let pending = signalled.filter(({ outcome }) => outcome.delivery === 'signaled')
  while (pending.length > 0 && monotonicNow() < deadline) {
    await delay(CLEANUP_POLL_MS)
    pending = pending.filter(({ process }) => isStillAlive(process.identity))
  }
  return signalled.map(({ process, outcome }) => ({
    pid: process.identity.pid,
    start_ticks: process.identity.start_ticks,
    command: process.stat.comm,
    attribution: process.attribution,
    delivery: outcome.delivery,
    ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
    confirmed_gone:
      outcome.delivery === 'gone' ||
      outcome.delivery === 'identity-changed' ||
      (outcome.delivery === 'signaled' && !pending.some((entry) => entry.process === process)),
  }))
}

function isStillAlive(identity: StartIdentity): boolean {
  const current = readStartIdentity(identity.pid)
  return current.status === 'ok' && sameIdentity(current.value.identity, identity)
}
