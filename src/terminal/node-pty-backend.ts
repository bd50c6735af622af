import { constants as fsConstants, openSync } from 'node:fs'
import type * as NodePty from 'node-pty'
import type { Disposer, PtyBackend, PtySpawnOptions } from './pty-backend.js'
import type { PtyChild, PtyChildExit } from './pty-child.js'
import { loadNativeBinding } from '../internal/native-binding.js'
import { DrainedPtySession } from './pty-session.js'

type NodePtyModule = typeof NodePty

/** What REA reads of a node-pty UnixTerminal beyond its typed interface. */
interface UnixTerminalInternals {
  readonly ptsName?: string
  on(event: 'error', listener: () => void): void
  /** node-pty 1.x writes through a queue of its own, which it fills when the terminal takes less than given. */
  readonly _writeStream?: { readonly _writeQueue?: readonly { buffer: Buffer; offset: number }[] }
  readonly _socket?: {
    destroy: () => void
    destroyed?: boolean
    on?(event: 'newListener', listener: (event: string | symbol) => void): void
    off?(event: 'newListener', listener: (event: string | symbol) => void): void
  }
}

/** A node-pty terminal as a PTY child. */
function nodePtyChild(pty: NodePty.IPty): PtyChild {
  const internals = pty as unknown as UnixTerminalInternals
  // Without a second 'error' listener node-pty rethrows non-EIO socket errors and crashes the process.
  internals.on('error', () => {
    // A read error ends the stream like EOF does; a missing drain marker then records the drain incomplete.
  })
  const closeNow = deferSocketDestroy(internals)
  const subscribe = <T>(event: NodePty.IEvent<T>, listener: (value: T) => void): Disposer => {
    const subscription = event(listener)
    return () => subscription.dispose()
  }
  return {
    pid: pty.pid,
    // forkpty's child, node-pty's waitpid thread, and on some hosts a spawn helper: not REA's to pin down.
    tasksCreated: undefined,
    // Its exit callback is seen only through a listener it adds to its socket: a hint, polled for besides.
    reportsReaping: false,
    takeSlave: () => openSlave(internals.ptsName),
    onData: (listener) => subscribe(pty.onData, (data) => listener(data as unknown as Buffer)),
    onExit: (listener) =>
      subscribe(pty.onExit, ({ exitCode, signal }): void =>
        listener({ exitCode, signal: signal ?? 0 } satisfies PtyChildExit),
      ),
    onReaped(listener) {
      // node-pty's native exit callback registers a 'close' listener on its socket once waitpid returned.
      const socket = internals._socket
      if (socket?.on === undefined) {
        return () => undefined
      }
      const onNewListener = (event: string | symbol): void => {
        if (event === 'close') {
          listener()
        }
      }
      socket.on('newListener', onNewListener)
      return () => socket.off?.('newListener', onNewListener)
    },
    write: (data) => pty.write(data),
    queuedWriteBytes: () => queuedBytes(internals),
    resize: (columns, rows) => pty.resize(columns, rows),
    pause: () => pty.pause(),
    resume: () => pty.resume(),
    close: closeNow,
  }
}

/**
 * node-pty closes the master 200 ms after the root's exit when something else still holds the terminal. After a
 * stalled event loop that timer is due before the reads that were waiting (the drain marker among them) have
 * run, and the close would lose them: its close is put off by one poll of the master, as the native spawner's
 * is. Returns REA's own close, which needs no wait.
 */
function deferSocketDestroy(internals: UnixTerminalInternals): () => void {
  const socket = internals._socket
  if (socket === undefined) {
    return () => undefined
  }
  const destroy = socket.destroy.bind(socket)
  socket.destroy = () => {
    setImmediate(destroy)
  }
  return () => {
    if (socket.destroyed !== true) {
      destroy()
    }
  }
}

/** What node-pty's write queue still holds, or undefined when this node-pty keeps none that REA can read. */
function queuedBytes(internals: UnixTerminalInternals): number | undefined {
  const queue: unknown = internals._writeStream?._writeQueue
  if (!Array.isArray(queue)) {
    return undefined
  }
  let bytes = 0
  for (const task of queue as readonly { buffer: Buffer; offset: number }[]) {
    bytes += task.buffer.length - task.offset
  }
  return bytes
}

/** node-pty keeps no descriptor on the slave, so the session's is opened by the slave's path. */
function openSlave(ptsName: string | undefined): number | undefined {
  if (ptsName === undefined || ptsName === '') {
    return undefined
  }
  try {
    return openSync(ptsName, fsConstants.O_RDWR | fsConstants.O_NOCTTY)
  } catch {
    // Without the slave descriptor the drain cannot run; the exit record then says so (drain: incomplete).
    return undefined
  }
}

/**
 * node-pty cannot ask the kernel what waits in the terminal's input queue; REA's native addon can, where it was
 * built (on Linux), whichever backend spawned the command.
 */
function unreadInputCounter(): ((slaveFd: number) => number) | undefined {
  const native = loadNativeBinding()
  return 'binding' in native ? (slaveFd) => native.binding.unreadInput(slaveFd) : undefined
}

/** Builds the PTY backend over an already loaded node-pty module: forkpty, which node-pty uses on Linux. */
export function createNodePtyBackend(pty: NodePtyModule): PtyBackend {
  return {
    name: 'node-pty',
    spawn(options: PtySpawnOptions) {
      const spawned = pty.spawn(options.file, [...options.args], {
        name: options.terminalType,
        cols: options.columns,
        rows: options.rows,
        cwd: options.cwd,
        env: { ...options.env },
        encoding: null,
      })
      return new DrainedPtySession(nodePtyChild(spawned), unreadInputCounter())
    },
  }
}
