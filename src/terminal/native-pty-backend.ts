import { closeSync, write as writeToFd } from 'node:fs'
import { addListener, type Disposer, type PtyBackend, type PtySpawnOptions } from './pty-backend.js'
import type { PtyChild, PtyChildExit } from './pty-child.js'
import type { MasterReadHandle, NativeBinding } from '../internal/native-binding.js'
import { DrainedPtySession } from './pty-session.js'

/**
 * How long the master may stay open after the root was reaped before REA closes it: node-pty's grace period, so
 * that a daemon holding the terminal delays the exit by the same time under either spawner.
 */
export const MASTER_CLOSE_GRACE_MS = 200

/** Bytes queued for the master and written as the kernel takes them; what node-pty's write stream does. */
class MasterWriter {
  readonly #fd: number
  readonly #queue: { buffer: Buffer; offset: number }[] = []
  #retry: NodeJS.Immediate | undefined
  #stopped = false

  constructor(fd: number) {
    this.#fd = fd
  }

  write(data: string): void {
    const buffer = Buffer.from(data, 'utf8')
    if (buffer.length === 0 || this.#stopped) {
      return
    }
    this.#queue.push({ buffer, offset: 0 })
    if (this.#queue.length === 1) {
      this.#next()
    }
  }

  /** Bytes queued and not yet taken by the kernel. */
  get queuedBytes(): number {
    let bytes = 0
    for (const task of this.#queue) {
      bytes += task.buffer.length - task.offset
    }
    return bytes
  }

  stop(): void {
    this.#stopped = true
    this.#queue.length = 0
    clearImmediate(this.#retry)
  }

  #next(): void {
    const task = this.#queue[0]
    if (task === undefined || this.#stopped) {
      return
    }
    writeToFd(this.#fd, task.buffer, task.offset, task.buffer.length - task.offset, (error, written) => {
      if (this.#stopped) {
        return
      }
      if (error !== null) {
        if (error.code === 'EAGAIN') {
          // The terminal's input queue is full: try again once the event loop has turned.
          this.#retry = setImmediate(() => this.#next())
        } else {
          // The master is gone (the terminal closed); what was not written cannot arrive any more.
          this.#queue.length = 0
        }
        return
      }
      task.offset += written
      if (task.offset >= task.buffer.length) {
        this.#queue.shift()
      }
      this.#next()
    })
  }
}

/**
 * What one spawn of native/linux/pty-spawn.c creates on the host: the vfork child (a script falls back to
 * /bin/sh inside that same child), the thread that waits for it and the thread that reads the master. A test
 * holds it against the host's count.
 */
export const NATIVE_SPAWN_TASKS = 3

/**
 * The master's output through the addon's reader thread. `onClose` runs once, when the output ended (EIO once
 * every slave descriptor is closed, as with a stream) or when `close` was called; no data arrives after it.
 */
class MasterReader {
  readonly #binding: NativeBinding
  readonly #handle: MasterReadHandle
  readonly #onData: (chunk: Buffer) => void
  readonly #onClose: () => void
  /** Takes a batch of plain text as its byte count instead of its bytes, when it returns true. */
  counter: ((byteLength: number) => boolean) | undefined
  #closed = false

  constructor(binding: NativeBinding, fd: number, onData: (chunk: Buffer) => void, onClose: () => void) {
    this.#binding = binding
    this.#onData = onData
    this.#onClose = onClose
    this.#handle = binding.readMaster(
      fd,
      (chunk) => {
        if (typeof chunk === 'number') {
          return this.counter?.(chunk) === true
        }
        this.#onData(chunk)
        return false
      },
      () => this.close(),
    )
  }

  get closed(): boolean {
    return this.#closed
  }

  pause(): void {
    if (!this.#closed) {
      this.#binding.pauseReading(this.#handle)
    }
  }

  resume(): void {
    if (!this.#closed) {
      this.#binding.resumeReading(this.#handle)
    }
  }

  close(): void {
    if (this.#closed) {
      return
    }
    this.#closed = true
    // What the thread read before it stopped is output too: a stream destroyed after its read kept it as well.
    const rest = this.#binding.stopReading(this.#handle)
    if (rest !== undefined) {
      this.#onData(rest)
    }
    this.#onClose()
  }
}

/** A child started by REA's own spawner, its master read by the addon's reader thread. */
class NativePtyChild implements PtyChild {
  readonly pid: number
  readonly tasksCreated = NATIVE_SPAWN_TASKS
  readonly reportsReaping = true
  readonly #binding: NativeBinding
  readonly #fd: number
  readonly #reader: MasterReader
  readonly #writer: MasterWriter
  readonly #dataListeners = new Set<(chunk: Buffer) => void>()
  readonly #exitListeners = new Set<(exit: PtyChildExit) => void>()
  readonly #reapedListeners = new Set<() => void>()
  #slave: number | undefined
  #reaped: PtyChildExit | undefined
  #masterClosed = false
  #exitReported = false
  #graceTimer: NodeJS.Timeout | undefined

  constructor(binding: NativeBinding, options: PtySpawnOptions) {
    this.#binding = binding
    // The environment is complete (PWD and TERM included): the launch built it.
    const spawned = binding.spawn(
      options.executablePath,
      [options.file, ...options.args],
      Object.entries(options.env).map(([name, value]) => `${name}=${value}`),
      options.cwd,
      options.columns,
      options.rows,
      (exitCode, signal) => this.#onReaped({ exitCode, signal }),
    )
    this.pid = spawned.pid
    this.#slave = spawned.slave
    this.#fd = spawned.fd
    this.#writer = new MasterWriter(spawned.fd)
    try {
      this.#reader = new MasterReader(
        binding,
        spawned.fd,
        (chunk) => {
          for (const listener of this.#dataListeners) {
            listener(chunk)
          }
        },
        () => {
          this.#masterClosed = true
          this.#writer.stop()
          this.#reportExit()
        },
      )
    } catch (error) {
      // No thread could be started to read the terminal (the system is out of threads or descriptors): a child
      // nobody reads must not keep running. The exit watch reaps it, and finds the terminal closed already.
      this.#masterClosed = true
      this.#writer.stop()
      process.kill(spawned.pid, 'SIGKILL')
      closeSync(spawned.slave)
      closeSync(spawned.fd)
      throw error
    }
  }

  takeSlave(): number | undefined {
    const slave = this.#slave
    this.#slave = undefined
    return slave
  }

  onData(listener: (chunk: Buffer) => void): Disposer {
    return addListener(this.#dataListeners, listener)
  }

  countPlainOutput(counter: (byteLength: number) => boolean): Disposer {
    this.#reader.counter = counter
    return () => {
      if (this.#reader.counter === counter) {
        this.#reader.counter = undefined
      }
    }
  }

  onExit(listener: (exit: PtyChildExit) => void): Disposer {
    return addListener(this.#exitListeners, listener)
  }

  onReaped(listener: () => void): Disposer {
    return addListener(this.#reapedListeners, listener)
  }

  write(data: string): void {
    this.#writer.write(data)
  }

  queuedWriteBytes(): number {
    return this.#writer.queuedBytes
  }

  resize(columns: number, rows: number): void {
    // Once the reader is closed the descriptor is closed, and its number may already belong to another file.
    if (!this.#reader.closed) {
      this.#binding.resize(this.#fd, columns, rows)
    }
  }

  pause(): void {
    this.#reader.pause()
  }

  resume(): void {
    this.#reader.resume()
  }

  close(): void {
    clearTimeout(this.#graceTimer)
    this.#writer.stop()
    this.#reader.close()
  }

  #onReaped(exit: PtyChildExit): void {
    this.#reaped = exit
    for (const listener of this.#reapedListeners) {
      listener()
    }
    if (this.#masterClosed) {
      this.#reportExit()
    } else {
      // A process that inherited the terminal keeps the master open; the exit is not held back for it. The close
      // waits for one more turn of the event loop: after a stalled loop the timer is due before the deliveries
      // that were waiting (the drain marker among them) have run. What the thread read after them, the close
      // hands over itself.
      this.#graceTimer = setTimeout(() => setImmediate(() => this.#reader.close()), MASTER_CLOSE_GRACE_MS)
    }
  }

  #reportExit(): void {
    const exit = this.#reaped
    if (exit === undefined || this.#exitReported) {
      return
    }
    this.#exitReported = true
    clearTimeout(this.#graceTimer)
    for (const listener of this.#exitListeners) {
      listener(exit)
    }
  }
}

/** The Linux backend over REA's own spawner: vfork instead of fork, so a large parent does not slow it down. */
export function createNativePtyBackend(binding: NativeBinding): PtyBackend {
  return {
    name: 'native',
    spawn: (options: PtySpawnOptions) =>
      new DrainedPtySession(new NativePtyChild(binding, options), (slaveFd) => binding.unreadInput(slaveFd)),
  }
}
