import type { Disposer } from './pty-backend.js'

/** How the root ended, as the spawner reports it: exit code 0 when a signal ended it. */
export interface PtyChildExit {
  readonly exitCode: number
  readonly signal: number
}

/**
 * One child in a PTY as a spawner hands it over: the master's bytes, the reaped exit, and the few controls a
 * session needs. The drain that makes output complete lives above this, in the PTY session, for every spawner.
 */
export interface PtyChild {
  readonly pid: number
  /**
   * How many tasks (processes and threads) the spawn created on the host, where the spawner knows it exactly;
   * undefined otherwise. Ownership uses it to tell from the host's task count that nothing but the root started.
   */
  readonly tasksCreated: number | undefined
  /**
   * A descriptor on the slave for the session's drain, which the session then owns and closes; undefined when
   * none could be had (the drain is then recorded incomplete). Called once.
   */
  takeSlave(): number | undefined
  onData(listener: (chunk: Buffer) => void): Disposer
  /**
   * Where the spawner can (REA's own reads the master in batches): offers each batch of plain text (no ESC byte,
   * ending on a whole character) to `counter` as its byte length first. When it returns true the batch is
   * counted there and `onData` never sees its bytes. One counter at a time; the disposer removes it.
   */
  countPlainOutput?(counter: (byteLength: number) => boolean): Disposer
  /** Once, after the root was reaped and the master closed (or a short grace period passed without a close). */
  onExit(listener: (exit: PtyChildExit) => void): Disposer
  /** As soon as the spawner knows the root was reaped: a hint to check now; the check itself decides. */
  onReaped(listener: () => void): Disposer
  /**
   * True when `onReaped` fires for every reaping as soon as it happened (REA's spawner reaps in a thread of its
   * own), so the session polls for the exit only as a safety net.
   */
  readonly reportsReaping: boolean
  write(data: string): void
  /**
   * Bytes handed to `write` that the kernel has not taken yet (the spawner queues what the terminal cannot take at
   * once), or undefined where the spawner does not say.
   */
  queuedWriteBytes(): number | undefined
  resize(columns: number, rows: number): void
  pause(): void
  resume(): void
  /** Closes the master. Never signals a process. */
  close(): void
}
