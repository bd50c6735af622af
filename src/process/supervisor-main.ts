import { closeSync, readdirSync, readlinkSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { cleanUpOwnedProcesses } from './cleanup.js'
import type { StartIdentity } from './identity.js'
import { procInspector } from './inspector.js'
import { OwnedTree } from './owned-tree.js'
import { decodeSupervisorMessage, type SupervisorMessage } from './supervisor-protocol.js'
import { readRegistryLines, REGISTRY_ARGUMENT, REGISTRY_FD } from './supervisor-registry.js'

/**
 * The supervisor: a small process REA starts, in its own session, before the first capture launches. REA
 * registers each capture's run token before the launch and releases it once it has cleaned up, in a registry
 * file the supervisor holds as descriptor 3 (or, where REA could not make one, over the supervisor's stdin).
 * When stdin reaches its end, REA has exited or died (SIGKILL, the OOM killer, a test runner killing a hung
 * worker): the supervisor then reads the registry and runs the capture cleanup (identity-checked, by token,
 * lineage and the root's session) for every token still registered, and exits.
 */
interface Registration {
  readonly sinceTicks: number
  root: StartIdentity | undefined
}

process.title = 'rea-supervisor'
closeInheritedTerminals()
/** What the pipe said, as it came: only where REA could not write a registry, or stopped being able to. */
const registrations = new Map<string, Registration>()
const namedByPipe = new Set<string>()
const lines = createInterface({ input: process.stdin })
lines.on('line', (line) => {
  const message = decodeSupervisorMessage(line)
  if (message !== undefined) {
    namedByPipe.add(message.token)
    apply(registrations, message)
  }
})
lines.on('close', () => {
  void cleanUpAfterRea().finally(() => process.exit(0))
})

function apply(into: Map<string, Registration>, message: SupervisorMessage): void {
  switch (message.kind) {
    case 'own':
      into.set(message.token, { sinceTicks: message.since_ticks, root: undefined })
      break
    case 'root': {
      const registration = into.get(message.token)
      if (registration !== undefined) {
        registration.root = message.identity
      }
      break
    }
    case 'release':
      into.delete(message.token)
      break
  }
}

/**
 * The registry's live tokens. REA switches to the pipe only after its last registry write, and then repeats every
 * live registration there: for a token the pipe named, the pipe is the later word.
 */
function addRegistryFile(): void {
  // Without the argument REA had no registry to give, and everything came by the pipe. (Run from source with
  // `--eval`, the argument is argv[1], not argv[2].)
  if (!process.argv.includes(REGISTRY_ARGUMENT)) {
    return
  }
  const fromFile = new Map<string, Registration>()
  for (const line of readRegistryLines(REGISTRY_FD)) {
    const message = decodeSupervisorMessage(line)
    if (message !== undefined) {
      apply(fromFile, message)
    }
  }
  for (const [token, registration] of fromFile) {
    if (!namedByPipe.has(token)) {
      registrations.set(token, registration)
    }
  }
}

async function cleanUpAfterRea(): Promise<void> {
  addRegistryFile()
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
 * The node-pty backend opens PTY masters without close-on-exec (REA's own spawner sets it), so a supervisor started
 * while such a capture runs inherits that capture's master, and would keep its terminal from hanging up for as long as the supervisor lives.
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
