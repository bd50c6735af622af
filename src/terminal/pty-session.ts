import { closeSync, writeSync } from 'node:fs'
import { readLocalModes, type LocalModes } from './local-modes.js'
import { createDrainMarker, DrainMarkerFilter } from './drain-marker.js'
import { watchProcessExit } from './exit-watch.js'
import { addListener, type Disposer, type PtyExit, type PtySession } from './pty-backend.js'
import type { PtyChild } from './pty-child.js'

/**
 * Works around libuv/libuv#4992 (a reader of the master drops the tail of a child's output at exit on Node 20):
 * REA holds a second descriptor on the PTY slave so the master never sees an early hang-up, writes a drain
 * marker into the slave once the root is gone, and releases the slave when the marker comes back out.
 */
export class DrainedPtySession implements PtySession {
  readonly pid: number
  readonly tasksCreated: number | undefined
  readonly exited: Promise<PtyExit>
  readonly rootGone: Promise<void>
  readonly #child: PtyChild
  /** Asks the kernel how many bytes wait unread in the slave's input queue; undefined where REA cannot. */
  readonly #countUnread: ((slaveFd: number) => number) | undefined
  readonly #marker = createDrainMarker()
  readonly #filter = new DrainMarkerFilter(this.#marker)
  readonly #dataListeners = new Set<(chunk: Buffer) => void>()
  readonly #disposers: Disposer[] = []
  #slaveFd: number | undefined
  #rootExited = false
  #closed = false

  constructor(child: PtyChild, countUnread?: (slaveFd: number) => number) {
    this.#child = child
    this.#countUnread = countUnread
    this.pid = child.pid
    this.tasksCreated = child.tasksCreated
    this.#slaveFd = child.takeSlave()
    let resolveGone!: () => void
    this.rootGone = new Promise((resolve) => (resolveGone = resolve))
    this.#disposers.push(child.onData((data) => this.#receive(data)))
    this.exited = new Promise((resolve) => {
      this.#disposers.push(
        child.onExit(({ exitCode, signal }) => {
          this.#rootExited = true
          resolveGone()
          this.#releaseSlave()
          const held = this.#filter.flush()
          if (held.length > 0) {
            this.#emit(held)
          }
          this.#closed = true
          resolve({ exitCode, signal, drain: this.#filter.found ? 'complete' : 'incomplete' })
        }),
      )
    })
    const exitWatch = watchProcessExit(
      this.pid,
      () => {
        this.#rootExited = true
        resolveGone()
        this.#startDrain()
      },
      child.reportsReaping,
    )
    this.#disposers.push(exitWatch.dispose)
    this.#disposers.push(child.onReaped(() => exitWatch.checkNow()))
  }

  onData(listener: (chunk: Buffer) => void): Disposer {
    return addListener(this.#dataListeners, listener)
  }

  countPlainOutput(counter: (byteLength: number) => boolean): Disposer {
    // A partial drain marker held back must be completed or given up by the next bytes, so they are read.
    return (
      this.#child.countPlainOutput?.((byteLength) => !this.#filter.holding && counter(byteLength)) ??
      (() => undefined)
    )
  }

  write(data: string): void {
    if (!this.#closed) {
      this.#child.write(data)
    }
  }

  unreadInput(): number | undefined {
    const queued = this.#child.queuedWriteBytes()
    if (
      this.#slaveFd === undefined ||
      this.#rootExited ||
      this.#countUnread === undefined ||
      queued === undefined
    ) {
      return undefined
    }
    try {
      return queued + this.#countUnread(this.#slaveFd)
    } catch {
      // The terminal is going away (the root exits while REA asks): what it held can no longer be told.
      return undefined
    }
  }

  resize(columns: number, rows: number): void {
    if (!this.#closed) {
      this.#child.resize(columns, rows)
    }
  }

  readLocalModes(): LocalModes | undefined {
    // The drain's descriptor on the slave reads the modes the program set; it is held until the root exits.
    return this.#slaveFd === undefined || this.#rootExited ? undefined : readLocalModes(this.#slaveFd)
  }

  pause(): void {
    if (!this.#rootExited && !this.#closed) {
      this.#child.pause()
    }
  }

  resume(): void {
    if (!this.#closed) {
      this.#child.resume()
    }
  }

  dispose(): void {
    for (const dispose of this.#disposers.splice(0).reverse()) {
      dispose()
    }
    this.#dataListeners.clear()
    this.#releaseSlave()
    this.#child.close()
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
    // A paused reader would let the spawner's grace period for the master's close win the race against the marker.
    this.#child.resume()
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
