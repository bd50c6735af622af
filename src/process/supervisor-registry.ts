import { closeSync, constants, ftruncateSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'

/**
 * The supervisor's argument that says its descriptor 3 is the registry (REA passes it as the fourth stdio entry).
 * Not an option: after `--eval` (the supervisor run from source) Node would take it for one of its own.
 */
export const REGISTRY_ARGUMENT = 'registry-on-fd-3'
export const REGISTRY_FD = 3

/**
 * Where REA keeps the supervisor's registrations: a file REA and its supervisor both hold open, removed from
 * the directory as soon as it is opened, so nothing is left behind whoever dies. A write there wakes nobody; a
 * write to the supervisor's pipe woke it on the other core three times per capture. The supervisor reads the file
 * once, when its pipe tells it REA is gone; an empty file then tells it, before Node.js is even started
 * (native/linux/supervisor-waiter.c), that there is nothing to clean up.
 */
export class SupervisorRegistry {
  readonly fd: number
  #bytes = 0

  private constructor(fd: number) {
    this.fd = fd
  }

  /** Undefined when no such file can be made (no writable temporary directory): messages then go by the pipe. */
  static create(): SupervisorRegistry | undefined {
    const file = path.join(tmpdir(), `rea-supervisor-${process.pid}-${randomBytes(8).toString('hex')}`)
    let fd: number
    try {
      // Opened close-on-exec (libuv's default), so only the supervisor, given it as a descriptor, inherits it.
      fd = openSync(file, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND, 0o600)
    } catch {
      return undefined
    }
    try {
      unlinkSync(file)
    } catch {
      // A file that cannot be removed would outlive both processes: do without it.
      closeSync(fd)
      return undefined
    }
    return new SupervisorRegistry(fd)
  }

  /** Appends one message line; false when the write failed or fell short (a full disk), and the caller falls back. */
  append(line: string): boolean {
    const bytes = Buffer.from(line, 'utf8')
    try {
      const written = writeSync(this.fd, bytes)
      this.#bytes += written
      // A short write leaves part of a line, which the supervisor cannot decode and skips.
      return written === bytes.length
    } catch {
      // Reported to the caller, which sends this and every later message by the pipe instead.
      return false
    }
  }

  /**
   * Called when no capture is registered any more: the registry then holds nothing worth keeping, and an empty one
   * lets the supervisor end without starting Node.js when REA ends.
   */
  clearWhenEmpty(): void {
    if (this.#bytes > 0) {
      try {
        ftruncateSync(this.fd, 0)
        this.#bytes = 0
      } catch {
        // A registry left as it was costs the supervisor a start of Node.js and a read when REA ends, nothing else.
      }
    }
  }

  close(): void {
    closeSync(this.fd)
  }
}

/** The supervisor's side: every line of the registry on descriptor `fd`, read from its start. */
export function readRegistryLines(fd: number): string[] {
  const chunks: Buffer[] = []
  const buffer = Buffer.allocUnsafe(64 * 1024)
  for (let position = 0; ;) {
    const read = readSync(fd, buffer, 0, buffer.length, position)
    if (read === 0) {
      break
    }
    chunks.push(Buffer.from(buffer.subarray(0, read)))
    position += read
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
}
