import { readFileSync } from 'node:fs'

/** Position of `tpgid` (the foreground process group of the process's terminal) after the command name. */
const TPGID_FIELD = 5

/**
 * Whether the program in the terminal's foreground is running right now (state `R`: on a CPU or waiting for
 * one), that is, still working on what it last read, rather than sleeping until its next input or timer. The
 * foreground process group is read from the root's `/proc/PID/stat` (`tpgid`), and its leader's state from its
 * own; a group whose leader is gone counts as not running. Undefined where this cannot be told: not Linux, or
 * the root is gone or unreadable.
 */
export function foregroundRunning(rootPid: number): boolean | undefined {
  if (process.platform !== 'linux') {
    return undefined
  }
  const root = statFields(rootPid)
  const group = Number(root?.[TPGID_FIELD])
  if (root === undefined || !Number.isSafeInteger(group)) {
    return undefined
  }
  if (group <= 0) {
    return false
  }
  const leader = group === rootPid ? root : statFields(group)
  return leader?.[0] === 'R'
}

/**
 * How many bytes the program in the terminal's foreground has read so far (`rchar` of `/proc/PID/io` for its
 * group's leader: every read call, from the terminal or elsewhere). It tells a key the program has read from one
 * the kernel has not yet moved into the terminal's input queue, where the queue looks empty either way.
 * Undefined where this cannot be told: not Linux, or the process is gone or unreadable.
 */
export function foregroundReadBytes(rootPid: number): number | undefined {
  if (process.platform !== 'linux') {
    return undefined
  }
  const group = Number(statFields(rootPid)?.[TPGID_FIELD])
  if (!Number.isSafeInteger(group) || group <= 0) {
    return undefined
  }
  let text: string
  try {
    text = readFileSync(`/proc/${group}/io`, 'latin1')
  } catch {
    // Gone, or not ours to read: the caller waits as if it could not tell.
    return undefined
  }
  const match = /^rchar: (\d+)$/m.exec(text)
  return match === null ? undefined : Number(match[1])
}

/** The fields of `/proc/PID/stat` after the command name (state first), or undefined when it cannot be read. */
function statFields(pid: number): string[] | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1')
  } catch {
    // Gone (it exited) or unreadable: the caller treats the state as unknown, or the leader as not running.
    return undefined
  }
  const close = text.lastIndexOf(')')
  return close < 0 ? undefined : text.slice(close + 2).split(' ', TPGID_FIELD + 1)
}
