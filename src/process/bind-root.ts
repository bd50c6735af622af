import { setTimeout as delay } from 'node:timers/promises'
import { readStartIdentity, sameIdentity, type StartIdentity } from './identity.js'
import { processInspector } from './inspector.js'
import { runTokenEntry } from './run-token.js'
import { monotonicNow } from '../internal/monotonic-clock.js'

/** How long REA waits for the root's token to become visible after exec. */
export const BINDING_WINDOW_MS = 1000
const BINDING_POLL_MS = 1

export type RootBinding =
  | { readonly binding: 'bound'; readonly identity: StartIdentity }
  /** The root exited before its token was visible: it needs no signal and is not an unknown. */
  | { readonly binding: 'exited_before_binding'; readonly identity: StartIdentity | null }
  | { readonly binding: 'unverified'; readonly identity: StartIdentity | null; readonly reason: string }

/**
 * Binds the root's start identity to the capture's run token. Right after the PTY fork the child has not
 * exec'd yet and its environment still lacks the token, so this polls within a bound. Identity is read before
 * and after the token: a change in between leaves the root unverified instead of adopting a replacement.
 */
export async function bindRootIdentity(pid: number, token: string): Promise<RootBinding> {
  const inspector = processInspector()
  if (inspector === undefined) {
    return {
      binding: 'unverified',
      identity: null,
      reason: `process inspection is not available on ${process.platform}`,
    }
  }
  const entry = Buffer.from(runTokenEntry(token))
  const first = readStartIdentity(pid)
  if (first.status === 'gone') {
    return { binding: 'exited_before_binding', identity: null }
  }
  if (first.status === 'unreadable') {
    return { binding: 'unverified', identity: null, reason: `identity unavailable: ${first.code}` }
  }
  const identity = first.value.identity
  const deadline = monotonicNow() + BINDING_WINDOW_MS
  for (;;) {
    const token = inspector.readEnviron(pid, entry)
    const after = readStartIdentity(pid)
    if (token.status === 'gone' || after.status === 'gone') {
      return { binding: 'exited_before_binding', identity }
    }
    if (after.status === 'unreadable' || !sameIdentity(after.value.identity, identity)) {
      return { binding: 'unverified', identity, reason: 'identity changed during validation' }
    }
    if (token.status === 'unreadable') {
      return { binding: 'unverified', identity, reason: `token unavailable: ${token.code}` }
    }
    if (token.value === 'carries') {
      return { binding: 'bound', identity }
    }
    if (monotonicNow() >= deadline) {
      return { binding: 'unverified', identity, reason: `token not visible within ${BINDING_WINDOW_MS} ms` }
    }
    await delay(BINDING_POLL_MS)
  }
}
