import { closeSync, readdirSync, readlinkSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { cleanUpOwnedProcesses } from './cleanup.js'
import type { StartIdentity } from './identity.js'
import { procInspector } from './inspector.js'
import { OwnedTree } from './owned-tree.js'
import { decodeSupervisorMessage } from './supervisor-protocol.js'

/**
 * The supervisor: a small process REA starts, in its own session, before the first capture launches. It
 * learns each capture's run token over its stdin and forgets it once REA has cleaned up. When stdin reaches
 * its end, REA has exited or died (SIGKILL, the OOM killer, a test runner killing a hung worker): the
 * supervisor then runs the capture cleanup (identity-checked, by token, lineage and the root's session) for
 * every token still registered, and exits.
 */
interface Registration {
  readonly sinceTicks: number
  root: StartIdentity | undefined
}

process.title = 'rea-supervisor'
closeInheritedTerminals()
const registrations = new Map<string, Registration>()
const lines = createInterface({ input: process.stdin })
lines.on('line', (line) => {
  const message = decodeSupervisorMessage(line)
  switch (message?.kind) {
    case 'own':
      registrations.set(message.token, { sinceTicks: message.since_ticks, root: undefined })
      break
    case 'root': {
      const registration = registrations.get(message.token)
      if (registration !== undefined) {
        registration.root = message.identity
      }
      break
    }
    case 'release':
      registrations.delete(message.token)
      break
    case undefined:
      break
  }
})
lines.on('close', () => {
  void cleanUpAfterRea().finally(() => process.exit(0))
})

async function cleanUpAfterRea(): Promise<void> {
  for (const [token, registration] of registrations) {
    const root = registration.root
    const tree = new OwnedTree(
      token,
      { pid: root?.pid, identity: root, startTicks: root?.start_ticks ?? registration.sinceTicks },
      procInspector,
    )
    try {
      await cleanUpOwnedProcesses(tree)
    } catch {
      // Nobody is left to tell; the other captures' processes must still be cleaned up.
    }
  }
}

/**
 * node-pty opens PTY masters without close-on-exec, so a supervisor started while a capture runs inherits that
 * capture's master, and would keep its terminal from hanging up for as long as the supervisor lives.
 */
function closeInheritedTerminals(): void {
  for (const name of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${name}`) === '/dev/ptmx') {
        closeSync(Number(name))
      }
    } catch {
      // The directory's own descriptor is gone by the time it is read; nothing else can fail here.
    }
  }
}
