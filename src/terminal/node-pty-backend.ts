import { closeSync, constants as fsConstants, openSync, writeSync } from 'node:fs'
import type * as NodePty from 'node-pty'
import { createDrainMarker, DrainMarkerFilter } from './drain-marker.js'
import { watchProcessExit } from './exit-watch.js'
import type { Disposer, PtyBackend, PtyExit, PtySession, PtySpawnOptions } from './pty-backend.js'

type NodePtyModule = typeof NodePty

/** The internal socket of a node-pty UnixTerminal; used only to close the master without node-pty's PID kill. */
interface SocketHolder {
  readonly _socket?: {
    destroy(): void
    destroyed?: boolean
    on?(event: 'newListener', listener: (event: string | symbol) => void): void
    off?(event: 'newListener', listener: (event: string | symbol) => void): void
  }
}

/**
 * Works around libuv/libuv#4992 (node-pty drops the tail of a child's output at exit on Node 20): REA holds a
 * second descriptor on the PTY slave so the master never sees an early hang-up, writes a drain marker into the
 * slave once the root is gone, and releases the slave when the marker comes back out of the master.
 */
class NodePtySession implements PtySession {
  readonly pid: number
  readonly exited: Promise<PtyExit>
  readonly rootGone: Promise<void>
  readonly #pty: NodePty.IPty
  readonly #marker = createDrainMarker()
  readonly #filter = new DrainMarkerFilter(this.#marker)
  readonly #dataListeners = new Set<(chunk: Buffer) => void>()
  readonly #disposers: Disposer[] = []
  #slaveFd: number | undefined
  #rootExited = false
  #closed = false

  constructor(pty: NodePty.IPty) {
    this.#pty = pty
    this.pid = pty.pid
    this.#slaveFd = openSlave((pty as unknown as { ptsName?: string }).ptsName)
    // Without a second 'error' listener node-pty rethrows non-EIO socket errors and crashes the process.
    ;(pty as unknown as { on(event: 'error', listener: () => void): void }).on('error', () => {
      // A read error ends the stream like EOF does; a missing drain marker then records the drain incomplete.
    })
    let resolveGone!: () => void
    this.rootGone = new Promise((resolve) => (resolveGone = resolve))
    const dataSubscription = pty.onData((data) => this.#receive(data as unknown as Buffer))
    this.exited = new Promise((resolve) => {
      const exitSubscription = pty.onExit(({ exitCode, signal }) => {
        this.#rootExited = true
        resolveGone()
        this.#releaseSlave()
        const held = this.#filter.flush()
        if (held.length > 0) {
          this.#emit(held)
        }
        this.#closed = true
        resolve({ exitCode, signal: signal ?? 0, drain: this.#filter.found ? 'complete' : 'incomplete' })
      })
      this.#disposers.push(() => exitSubscription.dispose())
    })
    this.#disposers.push(() => dataSubscription.dispose())
    const exitWatch = watchProcessExit(this.pid, () => {
      this.#rootExited = true
      resolveGone()
      this.#startDrain()
    })
    this.#disposers.push(exitWatch.dispose)
    // node-pty's native exit callback registers a 'close' listener on its socket once waitpid returned: a hint
    // to look now instead of at the next poll. The check itself decides; a spurious hint costs one read.
    const socket = (pty as unknown as SocketHolder)._socket
    if (socket?.on !== undefined) {
      const onNewListener = (event: string | symbol): void => {
        if (event === 'close') {
          exitWatch.checkNow()
        }
      }
      socket.on('newListener', onNewListener)
      this.#disposers.push(() => socket.off?.('newListener', onNewListener))
    }
  }

  onData(listener: (chunk: Buffer) => void): Disposer {
    this.#dataListeners.add(listener)
    return () => this.#dataListeners.delete(listener)
  }

  write(data: string): void {
    if (!this.#closed) {
      this.#pty.write(data)
    }
  }

  resize(columns: number, rows: number): void {
    if (!this.#closed) {
      this.#pty.resize(columns, rows)
    }
  }

  pause(): void {
    if (!this.#rootExited && !this.#closed) {
      this.#pty.pause()
    }
  }

  resume(): void {
    if (!this.#closed) {
      this.#pty.resume()
    }
  }

  dispose(): void {
    for (const dispose of this.#disposers.splice(0).reverse()) {
      dispose()
    }
    this.#dataListeners.clear()
    this.#releaseSlave()
    const socket = (this.#pty as unknown as SocketHolder)._socket
    if (socket !== undefined && socket.destroyed !== true) {
      socket.destroy()
    }
    this.#closed = true
  }

  #receive(data: Buffer): void {
    const { data: passed, found } = this.#filter.push(data)
    if (passed.length > 0) {
      this.#emit(passed)
    }
    if (found) {
      this.#releaseSlave()
    }
  }

  #emit(chunk: Buffer): void {
    for (const listener of this.#dataListeners) {
      listener(chunk)
    }
  }

  #startDrain(): void {
    // A paused reader would let node-pty's 200 ms socket teardown win the race against the marker.
    this.#pty.resume()
    if (this.#slaveFd === undefined) {
      return
    }
    this.#filter.arm()
    try {
      writeSync(this.#slaveFd, this.#marker)
    } catch {
      // The slave is unusable; the terminal then closes without the marker and the drain is recorded incomplete.
      this.#releaseSlave()
    }
  }

  #releaseSlave(): void {
    if (this.#slaveFd !== undefined) {
      const fd = this.#slaveFd
      this.#slaveFd = undefined
      closeSync(fd)
    }
  }
}

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

/** Builds the PTY backend over an already loaded node-pty module. */
export function createNodePtyBackend(pty: NodePtyModule): PtyBackend {
  return {
    name: 'node-pty',
    spawn(options: PtySpawnOptions): PtySession {
      const spawned = pty.spawn(options.file, [...options.args], {
        name: options.terminalType,
        cols: options.columns,
        rows: options.rows,
        cwd: options.cwd,
        env: { ...options.env },
        encoding: null,
      })
      return new NodePtySession(spawned)
    },
  }
}
