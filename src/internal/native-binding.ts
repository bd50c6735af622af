import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { NATIVE_BUILD_DIRECTORY } from './native-build.js'

declare const masterReadHandle: unique symbol
/** A reader thread of the addon (native/linux/master-reader.c); opaque to JavaScript. */
export type MasterReadHandle = { readonly [masterReadHandle]: true }

/** The exports of REA's Linux addon, rea_pty.node: see the comment at the top of each C file. */
export interface NativeBinding {
  /** Starts a command in a new PTY (pty-spawn.c). */
  spawn(
    path: string,
    argv: readonly string[],
    envp: readonly string[],
    cwd: string,
    columns: number,
    rows: number,
    onExit: (exitCode: number, signal: number) => void,
  ): { readonly fd: number; readonly slave: number; readonly pid: number }
  resize(fd: number, columns: number, rows: number): void
  /** Bytes waiting unread in the terminal's input queue (FIONREAD on a descriptor of the slave; pty-spawn.c). */
  unreadInput(slaveFd: number): number
  /**
   * The terminal's ECHO and ICANON flags (pty-spawn.c). Optional: a binary built before it was added still
   * spawns, and the modes are then read with `stty`.
   */
  localModes?(fd: number): { readonly echo: boolean; readonly canonical: boolean }
  /**
   * Reads the master in a thread of its own (master-reader.c). A batch of plain text is first offered to
   * `onData` as its byte length; returning true there counts it, and its bytes are not handed over.
   */
  readMaster(
    fd: number,
    onData: (chunk: Buffer | number) => boolean,
    onEnd: (errno: number) => void,
  ): MasterReadHandle
  pauseReading(handle: MasterReadHandle): void
  resumeReading(handle: MasterReadHandle): void
  /** Stops the thread and closes the master; returns what was read and not yet handed over. */
  stopReading(handle: MasterReadHandle): Buffer | undefined
  /** Starts the supervisor's waiter in a session of its own (detached-spawn.c). */
  spawnDetached(
    path: string,
    argv: readonly string[],
    registryFd: number,
  ): { readonly pid: number; readonly pipe: number }
}

const NATIVE_FUNCTIONS = [
  'spawn',
  'resize',
  'unreadInput',
  'readMaster',
  'pauseReading',
  'resumeReading',
  'stopReading',
  'spawnDetached',
] as const satisfies readonly (keyof NativeBinding)[]

export type NativeBindingLoad = { readonly binding: NativeBinding } | { readonly problem: string }

let loaded: NativeBinding | undefined

/**
 * REA's Linux addon, built by the package's install script into native/linux/build, beside dist/ in the package
 * and beside src/ in a checkout; or why it cannot be had. The supervisor and the PTY backend share one load; a
 * failure is not kept, so that a rebuild in a long-lived process (an MCP server) is found.
 */
export function loadNativeBinding(): NativeBindingLoad {
  if (loaded !== undefined) {
    return { binding: loaded }
  }
  const result = load()
  if ('binding' in result) {
    loaded = result.binding
  }
  return result
}

function load(): NativeBindingLoad {
  if (process.platform !== 'linux') {
    return { problem: `it exists only on Linux, not ${process.platform}` }
  }
  const here = path.dirname(fileURLToPath(import.meta.url))
  const relative = `${NATIVE_BUILD_DIRECTORY}/rea_pty.node`
  const candidates = [path.resolve(here, '..', relative), path.resolve(here, '../..', relative)]
  const require = createRequire(import.meta.url)
  let problem = `it was not built (looked for ${candidates.join(' and ')})`
  for (const candidate of candidates) {
    try {
      const binding = require(candidate) as Partial<NativeBinding> | undefined
      if (NATIVE_FUNCTIONS.every((name) => typeof binding?.[name] === 'function')) {
        return { binding: binding as NativeBinding }
      }
      // A binary built from older sources: `npm rebuild rea-capture` builds the current one.
      problem = `${candidate} lacks some of the functions ${NATIVE_FUNCTIONS.join(', ')}`
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'MODULE_NOT_FOUND')) {
        problem = `${candidate}: ${firstLineOf(error)}`
      }
    }
  }
  return { problem }
}

/** The first line of a load failure's message: Node's module errors add the require stack on further lines. */
export function firstLineOf(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : String(error)
}
