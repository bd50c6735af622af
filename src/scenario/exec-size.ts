import { readFileSync } from 'node:fs'
import { ReaError, type ReaIssue } from '../errors.js'

/** Linux refuses any one argument or environment string longer than this, its NUL included (MAX_ARG_STRLEN). */
export const LINUX_MAX_ARG_STRLEN = 32 * 4096
const DEFAULT_STACK_BYTES = 8 * 1024 * 1024
/** Linux gives arguments a quarter of the stack limit, at most 3/4 of 8 MiB and never below 128 KiB. */
const LINUX_STACK_CAP_BYTES = (DEFAULT_STACK_BYTES * 3) / 4
const LINUX_ARG_MIN_BYTES = 128 * 1024
/** macOS's kern.argmax. */
const MACOS_ARG_MAX_BYTES = 1024 * 1024
/** Room for a `#!` interpreter line, which the kernel adds to the arguments (at most 256 bytes) and the script path. */
const INTERPRETER_ALLOWANCE_BYTES = 512
const POINTER_BYTES = 8

/**
 * Throws the `INVALID_SCENARIO` error for {@link execSizeIssues}, if there are any: nothing is run.
 */
export function checkExecSize(
  executablePath: string,
  args: readonly string[],
  environment: Readonly<Record<string, string>>,
  overrides: Readonly<Record<string, string | null>>,
): void {
  const issues = execSizeIssues(executablePath, args, environment, overrides)
  if (issues.length > 0) {
    throw new ReaError(
      'INVALID_SCENARIO',
      `Invalid scenario (${issues.length} ${issues.length === 1 ? 'problem' : 'problems'}); nothing was run:`,
      { issues },
    )
  }
}

/**
 * What execve would refuse with E2BIG, checked before the launch so the scenario is rejected with the field named
 * and nothing runs, whichever PTY backend would run it. REA's own spawner (Linux) reports a failed exec as the
 * capture's launch failure (E2BIG, without the field); node-pty (macOS, or REA_PTY_BACKEND=node-pty) forks first
 * and execs in the child, so there an oversized argument vector would surface only as the child's error text and
 * exit code 1, indistinguishable from the command failing. `environment` is the child's complete environment; the count
 * follows the kernel's: every string with its NUL, plus one pointer per string, against a quarter of the
 * stack limit REA (and so the child) runs with.
 */
export function execSizeIssues(
  executablePath: string,
  args: readonly string[],
  environment: Readonly<Record<string, string>>,
  overrides: Readonly<Record<string, string | null>>,
): ReaIssue[] {
  const issues: ReaIssue[] = []
  const perString = process.platform === 'linux' ? LINUX_MAX_ARG_STRLEN : Number.POSITIVE_INFINITY
  const tooLong = (text: string): number | undefined => {
    const bytes = Buffer.byteLength(text) + 1
    return bytes > perString ? bytes - 1 : undefined
  }
  args.forEach((argument, index) => {
    const bytes = tooLong(argument)
    if (bytes !== undefined) {
      issues.push(stringIssue(`arguments[${index}]`, 'this argument', bytes))
    }
  })
  const entries = Object.entries(environment).map(([name, value]) => `${name}=${value}`)
  for (const [name, value] of Object.entries(environment)) {
    const bytes = tooLong(`${name}=${value}`)
    if (bytes !== undefined) {
      issues.push(
        Object.hasOwn(overrides, name)
          ? stringIssue(`environment.${name}`, 'this variable', bytes)
          : stringIssue('environment', `the inherited variable ${name}`, bytes),
      )
    }
  }
  const strings = [executablePath, executablePath, executablePath, ...args, ...entries]
  const total =
    strings.reduce((sum, text) => sum + Buffer.byteLength(text) + 1, 0) +
    (strings.length + 1) * POINTER_BYTES +
    INTERPRETER_ALLOWANCE_BYTES
  const limit = argumentAreaBytes()
  if (issues.length === 0 && total > limit) {
    issues.push({
      path: 'arguments',
      rule: 'exec_size',
      message: `with the environment, the arguments take about ${format(total)} bytes, over the ${format(limit)} bytes this host lets a program start with (execve would fail with E2BIG); pass large data in a file instead`,
    })
  }
  return issues
}

function stringIssue(path: string, what: string, bytes: number): ReaIssue {
  return {
    path,
    rule: 'exec_string_size',
    message: `${what} is ${format(bytes)} bytes, over the ${format(LINUX_MAX_ARG_STRLEN - 1)} bytes Linux allows for one argument or variable (execve would fail with E2BIG); pass large data in a file instead`,
  }
}

let areaBytes: number | undefined

/** The argument area this process's children get: Linux derives it from the stack limit they inherit. */
function argumentAreaBytes(): number {
  if (areaBytes !== undefined) {
    return areaBytes
  }
  if (process.platform !== 'linux') {
    areaBytes = MACOS_ARG_MAX_BYTES
    return areaBytes
  }
  let stackBytes = DEFAULT_STACK_BYTES
  try {
    const soft = /^Max stack size\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'latin1'))?.[1]
    if (soft !== undefined) {
      stackBytes = soft === 'unlimited' ? Number.POSITIVE_INFINITY : Number(soft)
    }
  } catch {
    // Without /proc/self/limits, assume the usual 8 MiB stack.
  }
  areaBytes = Math.max(LINUX_ARG_MIN_BYTES, Math.min(LINUX_STACK_CAP_BYTES, stackBytes / 4))
  return areaBytes
}

function format(count: number): string {
  return count.toLocaleString('en-US')
}
