import type { SpawnSyncReturns } from 'node:child_process'
import { childProcess } from '../internal/child-process.js'
import { loadNativeBinding } from '../internal/native-binding.js'

/** The two local modes that tell a password prompt from a full-screen program. */
export interface LocalModes {
  /** termios ECHO: the terminal echoes what is typed. */
  readonly echo: boolean
  /** termios ICANON: input is read a line at a time (off in raw mode, as full-screen programs set it). */
  readonly canonical: boolean
}

/**
 * The local modes of the terminal on `fd` (the PTY's slave, whose modes are the ones the program set: a password
 * prompt turns ECHO off and keeps ICANON), or undefined when they cannot be read. REA's native addon calls
 * tcgetattr; without it (another platform, an older build), `stty` reads the modes of its standard input, at the
 * cost of a process per call.
 */
export function readLocalModes(fd: number): LocalModes | undefined {
  const native = loadNativeBinding()
  if ('binding' in native && native.binding.localModes !== undefined) {
    try {
      const { echo, canonical } = native.binding.localModes(fd)
      return { echo, canonical }
    } catch {
      // The descriptor is gone (the program exited): the modes are unknown, which the caller treats as such.
      return undefined
    }
  }
  return readLocalModesWithStty(fd)
}

function readLocalModesWithStty(fd: number): LocalModes | undefined {
  let result: SpawnSyncReturns<string>
  try {
    result = childProcess().spawnSync('stty', ['-a'], {
      stdio: [fd, 'pipe', 'ignore'],
      encoding: 'utf8',
      timeout: 2000,
    })
  } catch {
    // No stty, or the descriptor is gone: the modes are unknown, which the caller treats as such.
    return undefined
  }
  if (result.status !== 0 || typeof result.stdout !== 'string') {
    return undefined
  }
  // `stty -a` lists each mode as a word, with `-` when it is off; `echoe`, `echok`, … are other flags.
  const words = new Set(result.stdout.split(/[\s;]+/))
  const flag = (name: string): boolean | undefined =>
    words.has(`-${name}`) ? false : words.has(name) ? true : undefined
  const echo = flag('echo')
  const canonical = flag('icanon')
  return echo === undefined || canonical === undefined ? undefined : { echo, canonical }
}
