import type { LocalModes } from './local-modes.js'

/** Removes a listener or releases a resource; safe to call more than once. */
export type Disposer = () => void

/** Adds `listener` to `listeners`; the disposer removes it. */
export function addListener<T>(listeners: Set<T>, listener: T): Disposer {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export interface PtySpawnOptions {
  /** As the scenario wrote it: the PTY child resolves a bare name on its own PATH, so argv[0] stays faithful. */
  readonly file: string
  /** The file `file` resolved to when the scenario was checked; the native spawner executes this one. */
  readonly executablePath: string
  readonly args: readonly string[]
  readonly cwd: string
  /** The complete environment of the child; nothing is merged in below this port. */
  readonly env: Readonly<Record<string, string>>
  readonly columns: number
  readonly rows: number
  readonly terminalType: string
}

/** How the end of output was established when the root exited. */
export type DrainOutcome =
  /** The drain marker arrived after everything the root wrote: no byte was lost. */
  | 'complete'
  /** The terminal closed before the marker arrived; output written just before exit may be missing. */
  | 'incomplete'

export interface PtyExit {
  /** Exit status as the PTY layer reports it; 0 when the process ended on a signal. */
  readonly exitCode: number
  /** Signal number that ended the process, or 0. */
  readonly signal: number
  readonly drain: DrainOutcome
}

/** One process running in a pseudo-terminal. Every native call is guarded against racing the child's exit. */
export interface PtySession {
  readonly pid: number
  /** Tasks the spawn created on the host, processes and threads, where the spawner knows it exactly. */
  readonly tasksCreated: number | undefined
  /** Original bytes as read from the PTY master, in order. */
  onData(listener: (chunk: Buffer) => void): Disposer
  /**
   * Lets `counter` take batches of plain text as byte counts instead of bytes, where the spawner offers them
   * (see PtyChild.countPlainOutput); a counted batch never reaches `onData`. Without such a spawner, nothing.
   */
  countPlainOutput(counter: (byteLength: number) => boolean): Disposer
  /** Resolves once the root exited and its output was drained (or the terminal closed without the marker). */
  readonly exited: Promise<PtyExit>
  /** Resolves when REA first saw the root gone, before the drain; used to time the exit. */
  readonly rootGone: Promise<void>
  write(data: string): void
  /**
   * Input written to the terminal that the program has not read yet, in bytes: what REA still holds plus what
   * waits in the terminal's input queue (in canonical mode the kernel counts only complete lines). Undefined when
   * it cannot be told: the root has exited, REA's native addon (which asks the kernel) is not available, or the
   * spawner does not say what it still holds.
   */
  unreadInput(): number | undefined
  resize(columns: number, rows: number): void
  /**
   * The terminal's local modes right now (echo, line mode: a password prompt turns echo off), or undefined when
   * they cannot be read (the root has exited, or the host has no `stty`).
   */
  readLocalModes(): LocalModes | undefined
  /** Flow control for a slow consumer; ignored once the root exited, so the drain never stalls. */
  pause(): void
  resume(): void
  /** Releases the PTY file descriptors. Never signals a process: cleanup is owned-process cleanup's job. */
  dispose(): void
}

export interface PtyBackend {
  readonly name: string
  spawn(options: PtySpawnOptions): PtySession
}
