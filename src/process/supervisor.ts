import type { ChildProcess } from 'node:child_process'
import { closeSync, existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { NATIVE_BUILD_DIRECTORY } from '../internal/native-build.js'
import { childProcess } from '../internal/child-process.js'
import { loadNativeBinding } from '../internal/native-binding.js'
import { REA_VERSION } from '../version.js'
import { readStartIdentity, sameIdentity, type StartIdentity } from './identity.js'
import { encodeSupervisorMessage, type SupervisorMessage } from './supervisor-protocol.js'
import { REGISTRY_ARGUMENT, SupervisorRegistry } from './supervisor-registry.js'

/** What a capture tells the supervisor after registering its token. */
export interface SupervisedCapture {
  /** The root's start identity, once read after the fork. */
  root(identity: StartIdentity): void
  /** Cleanup is done: the supervisor forgets the token. */
  release(): void
}

const UNSUPERVISED: SupervisedCapture = { root: () => undefined, release: () => undefined }

/** The running supervisor process, however it was started. */
interface SupervisorChild {
  readonly pid: number | undefined
  /** Known to have ended. A child whose end REA cannot observe says false; its identity is checked as well. */
  readonly ended: boolean
  /** Writes a message line to its pipe; the waiter reads none, and is never written to. */
  write(line: string): void
  /** Ends it (SIGKILL) and lets go of its pipe. */
  kill(): void
}

/**
 * The one supervisor of this REA process: started on the first capture (or by the CLI before it), in its own
 * session (a kill of REA's process group does not reach it), with an empty environment (it carries no run token or
 * test marker), and unreferenced, so it never keeps REA alive. If it dies, the next capture starts another and
 * hands it the tokens of the captures still running.
 *
 * With a registry, what runs while REA lives is the native waiter (native/linux/supervisor-waiter.c), which starts
 * the Node.js supervisor only if REA ends with a capture registered; without the waiter, or by the pipe, it is the
 * Node.js supervisor from the start.
 */
class Supervisor {
  #child: SupervisorChild | undefined
  /** The child is the native waiter, which reads nothing from its pipe: pipe messages need the Node.js supervisor. */
  #childWaits = false
  /** The file the messages go to; undefined while they go by the supervisor's pipe. */
  #registry: SupervisorRegistry | undefined
  /** Once a write to a registry failed (a full disk), messages go by the pipe for good. */
  #registryFailed = false
  #identity: StartIdentity | undefined
  /** The messages of every capture not yet released, replayed to a replacement supervisor. */
  readonly #live = new Map<string, SupervisorMessage[]>()

  async register(token: string, sinceTicks: number): Promise<SupervisedCapture> {
    const own: SupervisorMessage = { kind: 'own', token, since_ticks: sinceTicks }
    this.#live.set(token, [own])
    if (this.#alive()) {
      this.#send(own)
    } else {
      // Captures started together share one start: it sends every live registration, theirs included.
      await this.start()
    }
    return {
      root: (identity) => {
        const message: SupervisorMessage = { kind: 'root', token, identity }
        this.#live.get(token)?.push(message)
        this.#send(message)
      },
      release: () => {
        if (this.#live.delete(token)) {
          this.#send({ kind: 'release', token })
          if (this.#live.size === 0) {
            this.#registry?.clearWhenEmpty()
          }
        }
      },
    }
  }

  /** Starts the supervisor unless it runs; resolves once it was spawned (or could not be). */
  start(): Promise<void> {
    if (!this.#alive()) {
      this.#start()
    }
    return Promise.resolve()
  }

  #start(): void {
    // Spawned within `start()`, synchronously: the CLI's call, made before the command's module is evaluated,
    // starts the supervisor's boot before that work, not after it.
    const supervisor = builtSupervisor()
    if (supervisor === undefined) {
      return
    }
    this.#registry?.close()
    const registry = this.#registryFailed ? undefined : SupervisorRegistry.create()
    this.#registry = undefined
    const command = supervisorCommand(supervisor, registry !== undefined)
    const child = command.waits && registry !== undefined ? spawnWaiter(command, registry.fd) : undefined
    this.#child = child ?? this.#spawnNodeProcess(command, registry?.fd)
    if (this.#child === undefined) {
      registry?.close()
      // Without a supervisor, only REA's own death is uncovered; the capture itself runs and cleans up as ever.
      return
    }
    this.#registry = registry
    this.#childWaits = command.waits
    // Either spawn returns once the child has exec'd, and a start identity survives exec.
    const pid = this.#child.pid
    const identity = pid === undefined ? undefined : readStartIdentity(pid)
    this.#identity = identity?.status === 'ok' ? identity.value.identity : undefined
    for (const messages of this.#live.values()) {
      for (const message of messages) {
        this.#send(message)
      }
    }
  }

  /**
   * Whether the supervisor still runs. Its 'exit' event can come later than the next capture, so its identity
   * is read again (a zombie counts as gone): one /proc read per capture.
   */
  #alive(): boolean {
    const child = this.#child
    if (child === undefined) {
      return false
    }
    let alive = !child.ended
    if (alive && this.#identity !== undefined) {
      const current = readStartIdentity(this.#identity.pid)
      alive = current.status === 'ok' && sameIdentity(current.value.identity, this.#identity)
    }
    if (!alive) {
      this.#child = undefined
    }
    return alive
  }

  #send(message: SupervisorMessage): void {
    if (this.#child === undefined) {
      return
    }
    const line = encodeSupervisorMessage(message)
    if (this.#registry?.append(line) === true) {
      return
    }
    if (this.#registry !== undefined) {
      // The registry can no longer be written: from here on every message goes by the pipe, the live ones again
      // first. The supervisor takes what its pipe says of a token over what the registry says.
      this.#registry.close()
      this.#registry = undefined
      this.#registryFailed = true
      if (this.#childWaits) {
        // The waiter reads no messages: the Node.js supervisor replaces it, by the pipe, given every live one.
        this.#child.kill()
        this.#child = undefined
        this.#start()
        return
      }
      for (const messages of this.#live.values()) {
        for (const live of messages) {
          this.#child.write(encodeSupervisorMessage(live))
        }
      }
      if (message.kind !== 'release') {
        return
      }
    }
    // The pipe's write is attempted at once, so the message is in the kernel's buffer before the command starts.
    this.#child.write(line)
  }

  /** The Node.js supervisor, or the waiter where the addon is not there, through child_process. */
  #spawnNodeProcess(command: SupervisorCommand, registryFd: number | undefined): SupervisorChild | undefined {
    let child: ChildProcess
    try {
      child = childProcess().spawn(command.file, command.args, {
        detached: true,
        // The registry becomes the supervisor's descriptor 3 (REGISTRY_FD).
        stdio: ['pipe', 'ignore', 'ignore', ...(registryFd === undefined ? [] : [registryFd])],
        env: {},
        cwd: '/',
      })
    } catch {
      return undefined
    }
    const handle: SupervisorChild = {
      pid: child.pid,
      get ended() {
        return child.exitCode !== null || child.signalCode !== null
      },
      write: (line) => child.stdin?.write(line),
      kill: () => child.kill('SIGKILL'),
    }
    const forget = (): void => {
      if (this.#child === handle) {
        this.#child = undefined
      }
    }
    child.once('exit', forget)
    child.once('error', forget)
    // A write to a supervisor that just died fails with EPIPE; the next capture starts another.
    child.stdin?.on('error', forget)
    child.unref()
    ;(child.stdin as { unref?: () => void } | null)?.unref?.()
    return handle
  }
}

/**
 * The waiter through REA's addon (native/linux/detached-spawn.c): no Node child-process machinery, which would cost
 * the CLI's start-up several milliseconds. Undefined where the addon is not there; child_process starts it then.
 */
function spawnWaiter(command: SupervisorCommand, registryFd: number): SupervisorChild | undefined {
  const native = loadNativeBinding()
  if (!('binding' in native)) {
    return undefined
  }
  let started: { readonly pid: number; readonly pipe: number }
  try {
    started = native.binding.spawnDetached(command.file, [command.file, ...command.args], registryFd)
  } catch {
    return undefined
  }
  let pipe: number | undefined = started.pipe
  return {
    pid: started.pid,
    // The addon reaps it unobserved: whether it still runs is its identity's to say.
    ended: false,
    write: () => undefined,
    kill: () => {
      try {
        process.kill(started.pid, 'SIGKILL')
      } catch {
        // Already gone.
      }
      if (pipe !== undefined) {
        closeSync(pipe)
        pipe = undefined
      }
    },
  }
}

/**
 * One supervisor per process and REA version, kept on the global object: the CLI starts it (`startSupervisor`) from
 * its entry, while the capture that registers with it runs from a command bundle holding a copy of this module.
 */
const SHARED = Symbol.for(`rea.supervisor ${REA_VERSION}`)

function sharedSupervisor(): Supervisor {
  const holder = globalThis as unknown as Record<symbol, Supervisor | undefined>
  return (holder[SHARED] ??= new Supervisor())
}

let enabled = true
let waiterEnabled = true

/**
 * For bench/ only: captures with and without the supervisor, side by side in one process; `waiter: false` runs the
 * Node.js supervisor from the start, as REA did before the native waiter.
 */
export function useSupervisor(on: boolean, { waiter = true }: { readonly waiter?: boolean } = {}): void {
  enabled = on
  waiterEnabled = waiter
}

/**
 * Registers a capture's run token with this process's supervisor (starting it if needed) before the command
 * is launched, so that if REA dies, its owned processes are still found and killed. Where no supervisor can
 * run (not Linux, or REA's files are not laid out as built), the capture is simply not supervised.
 */
export function superviseCapture(token: string, sinceTicks: number): Promise<SupervisedCapture> {
  if (process.platform !== 'linux' || !enabled) {
    return Promise.resolve(UNSUPERVISED)
  }
  return sharedSupervisor().register(token, sinceTicks)
}

/**
 * Starts the supervisor now rather than at the first capture. Its Node process takes a while to boot; started
 * while `rea capture-process` still loads, that boot is over before the command runs instead of competing
 * with it. A capture that never comes leaves nothing: the supervisor exits when REA does.
 */
export function startSupervisor(): void {
  if (process.platform === 'linux' && enabled) {
    // Failures are the first capture's to see: it starts the supervisor again, or runs unsupervised.
    sharedSupervisor()
      .start()
      .catch(() => undefined)
  }
}

/** This module's own file: a `.ts` file when REA runs from its TypeScript sources (its own tests under Vitest). */
const HERE = fileURLToPath(import.meta.url)
const RUNS_FROM_SOURCE = HERE.endsWith('.ts')

/** The built supervisor's files: the Node.js script, and the native waiter where the install built it. */
interface BuiltSupervisor {
  readonly script: string
  readonly waiter: string | undefined
}

let built: { readonly supervisor: BuiltSupervisor | undefined } | undefined

/**
 * How to run the built supervisor: `supervisor.cjs` (or `supervisor.js`) next to REA's bundle, if it is there. From
 * the sources (REA's own tests), the repository's build in dist/: the package never builds anything at run time;
 * without a build, captures from the sources run unsupervised.
 */
function builtSupervisor(): BuiltSupervisor | undefined {
  built ??= { supervisor: locateBuiltSupervisor() }
  return built.supervisor
}

function locateBuiltSupervisor(): BuiltSupervisor | undefined {
  // Bundled code sits in dist/ (chunks) or one folder below it (dist/cli/); sources in src/process/. The CommonJS
  // build is preferred: it starts without Node's ESM loader, sparing the core the first capture's command runs on.
  const directories = RUNS_FROM_SOURCE
    ? [path.resolve(path.dirname(HERE), '../../dist')]
    : [path.dirname(HERE), path.dirname(path.dirname(HERE))]
  for (const directory of directories) {
    for (const name of ['supervisor.cjs', 'supervisor.js']) {
      const script = path.join(directory, name)
      if (existsSync(script)) {
        const waiter = path.resolve(directory, '..', NATIVE_BUILD_DIRECTORY, 'rea-supervisor')
        return { script, waiter: existsSync(waiter) ? waiter : undefined }
      }
    }
  }
  return undefined
}

interface SupervisorCommand {
  readonly file: string
  readonly args: string[]
  /** The native waiter runs, not the Node.js supervisor. */
  readonly waits: boolean
}

/** The supervisor's command line: the waiter where a registry is given and it was built, else Node.js itself. */
function supervisorCommand(supervisor: BuiltSupervisor, withRegistry: boolean): SupervisorCommand {
  if (!withRegistry) {
    return { file: process.execPath, args: [supervisor.script], waits: false }
  }
  return supervisor.waiter === undefined || !waiterEnabled
    ? { file: process.execPath, args: [supervisor.script, REGISTRY_ARGUMENT], waits: false }
    : { file: supervisor.waiter, args: [process.execPath, supervisor.script, REGISTRY_ARGUMENT], waits: true }
}
