import { readStartIdentity, sameIdentity, type StartIdentity } from './identity.js'

/** What became of one signal REA tried to send. None of these proves the process exited. */
export type SignalDelivery = 'signaled' | 'gone' | 'identity-changed' | 'unverified'

export interface SignalOutcome {
  readonly delivery: SignalDelivery
  /** Present for `unverified`: why the identity could not be established or the call failed. */
  readonly reason?: string
}

/**
 * Sends `signal` to the process only if the PID still belongs to `expected`, re-reading its identity right
 * before the call. There is no fallback to a bare PID kill: a failed check is recorded, not worked around.
 * The check and the kill remain two separate operating-system calls.
 */
export function sendCheckedSignal(expected: StartIdentity, signal: NodeJS.Signals): SignalOutcome {
  // Never init, never REA's own process or its parent, whatever a record says: a last line of defence.
  if (expected.pid <= 1 || expected.pid === process.pid || expected.pid === process.ppid) {
    return { delivery: 'unverified', reason: `refused to signal protected process ${expected.pid}` }
  }
  const current = readStartIdentity(expected.pid)
  switch (current.status) {
    case 'gone':
      return { delivery: 'gone' }
    case 'unreadable':
      return { delivery: 'unverified', reason: `identity unavailable: ${current.code}` }
    case 'ok':
      break
  }
  if (!sameIdentity(current.value.identity, expected)) {
    return { delivery: 'identity-changed' }
  }
  try {
    process.kill(expected.pid, signal)
    return { delivery: 'signaled' }
  } catch (error) {
    const code =
      typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'UNKNOWN'
    return code === 'ESRCH'
      ? { delivery: 'gone' }
      : { delivery: 'unverified', reason: `signal failed: ${code}` }
  }
}

/** How long REA waits for one signal's identity check and delivery before recording it unverified. */
export const SIGNAL_DELIVERY_BOUND_MS = 1000

/**
 * {@link sendCheckedSignal} under the delivery bound. A delivery that has not settled within the bound is
 * recorded `unverified`; if it completes later, that late result is not added to any record. Each call is
 * independent, so a later signal (the finalization SIGKILL) never waits for an earlier one's result.
 */
export function deliverSignal(
  expected: StartIdentity,
  signal: NodeJS.Signals,
  check: (
    identity: StartIdentity,
    signal: NodeJS.Signals,
  ) => SignalOutcome | Promise<SignalOutcome> = sendCheckedSignal,
): Promise<SignalOutcome> {
  return new Promise((resolve) => {
    let settled = false
    const timer = setTimeout(() => {
      settled = true
      resolve({
        delivery: 'unverified',
        reason: `delivery did not settle within ${SIGNAL_DELIVERY_BOUND_MS} ms`,
      })
    }, SIGNAL_DELIVERY_BOUND_MS)
    // On Linux the check and the kill are synchronous; the bound matters where inspection is asynchronous.
    void Promise.resolve()
      .then(() => check(expected, signal))
      .then(
        (outcome) => outcome,
        (error: unknown): SignalOutcome => ({
          delivery: 'unverified',
          reason: `signal error: ${String(error)}`,
        }),
      )
      .then((outcome) => {
        if (!settled) {
          settled = true
          clearTimeout(timer)
          resolve(outcome)
        }
      })
  })
}
