import { setTimeout as delay } from 'node:timers/promises'
import { readStartIdentity, sameIdentity } from './identity.js'
import { sendCheckedSignal, type SignalDelivery } from './signal.js'
import { scanForRunToken, type TokenScan, type UnreadableProcess } from './token-scan.js'

/** How long cleanup waits for killed processes to disappear before calling the result incomplete. */
export const CLEANUP_CONFIRM_MS = 2000
const CLEANUP_POLL_MS = 5
/** New token holders can appear while cleanup runs (a parent forking before its kill lands): scan again. */
const MAX_CLEANUP_ROUNDS = 8

export interface KilledProcess {
  readonly pid: number
  readonly start_ticks: number
  readonly command: string
  readonly delivery: SignalDelivery
  readonly reason?: string
  /** Whether REA saw the process gone (or a zombie) after the kill. */
  readonly confirmed_gone: boolean
}

export type OwnedCleanupStatus = 'not_needed' | 'completed' | 'incomplete' | 'unsupported'

export interface OwnedCleanupResult {
  readonly status: OwnedCleanupStatus
  readonly processes: KilledProcess[]
  readonly unreadable: UnreadableProcess[]
  readonly elapsed_ms: number
}

/**
 * Kills every process that still carries the capture's run token and confirms it is gone. Only processes
 * whose identity was bound to the token are signalled, through the identity-checked signal function.
 *
 * `startingScan` may be a scan just made (by settlement): a token holder can only be started by another
 * holder, so a complete scan that found none means there is nothing left to find.
 */
export async function cleanUpOwnedProcesses(
  token: string,
  startingScan?: TokenScan,
): Promise<OwnedCleanupResult> {
  const startedAt = performance.now()
  if (process.platform !== 'linux') {
    return { status: 'unsupported', processes: [], unreadable: [], elapsed_ms: 0 }
  }
  const processes: KilledProcess[] = []
  let unreadable: UnreadableProcess[] = []
  for (let round = 0; round < MAX_CLEANUP_ROUNDS; round++) {
    const scan = round === 0 && startingScan !== undefined ? startingScan : await scanForRunToken(token)
    unreadable = scan.unreadable
    if (scan.holders.length === 0) {
      break
    }
    const signalled = scan.holders.map((holder) => ({
      holder,
      outcome: sendCheckedSignal(holder.identity, 'SIGKILL'),
    }))
    const deadline = performance.now() + CLEANUP_CONFIRM_MS
    let pending = signalled.filter(({ outcome }) => outcome.delivery === 'signaled')
    while (pending.length > 0 && performance.now() < deadline) {
      await delay(CLEANUP_POLL_MS)
      pending = pending.filter(({ holder }) => isStillAlive(holder.identity))
    }
    for (const { holder, outcome } of signalled) {
      processes.push({
        pid: holder.identity.pid,
        start_ticks: holder.identity.start_ticks,
        command: holder.command,
        delivery: outcome.delivery,
        ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
        confirmed_gone: outcome.delivery === 'gone' || !pending.some((entry) => entry.holder === holder),
      })
    }
  }
  const confirmed = processes.every((entry) => entry.confirmed_gone)
  // The loop above ends on an empty scan unless it ran out of rounds; only then is a last look needed.
  const remaining = processes.length === 0 ? 0 : confirmed ? (await scanForRunToken(token)).holders.length : 1
  return {
    status: processes.length === 0 ? 'not_needed' : remaining === 0 ? 'completed' : 'incomplete',
    processes,
    unreadable,
    elapsed_ms: Math.round(performance.now() - startedAt),
  }
}

function isStillAlive(identity: Parameters<typeof sameIdentity>[0]): boolean {
  const current = readStartIdentity(identity.pid)
  return current.status === 'ok' && sameIdentity(current.value.identity, identity)
}
