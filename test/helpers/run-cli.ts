import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { REPO_ROOT } from './fixtures.js'

/** The built CLI; `npm test` builds before it runs the tests. */
export const CLI = path.join(REPO_ROOT, 'dist/cli/main.cjs')

export interface CliResult {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

export interface CliRun {
  readonly child: ChildProcess
  /** Resolves when stderr has produced a line for which `predicate` holds. */
  stderrLine(predicate: (line: string) => boolean): Promise<string>
  readonly result: Promise<CliResult>
}

export interface CliOptions {
  readonly cwd?: string
  readonly env?: NodeJS.ProcessEnv
  /** A hang guard, not a timing check: REA is killed (SIGKILL) if it has not ended by then. */
  readonly killAfterMs?: number
  /** The whole command line instead of `node dist/cli/main.cjs <args>` (a wrapper that runs the CLI itself). */
  readonly command?: readonly string[]
}

/** Starts `rea <args>` in `cwd` and collects its output. */
export function startCli(args: string[], options: CliOptions = {}): CliRun {
  const [file, ...argv] = options.command ?? [process.execPath, CLI, ...args]
  const child = spawn(file as string, argv, {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  const waiters: { predicate: (line: string) => boolean; resolve: (line: string) => void }[] = []
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text))
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text
    for (const line of stderr.split('\n')) {
      for (const waiter of waiters.splice(0)) {
        if (waiter.predicate(line)) {
          waiter.resolve(line)
        } else {
          waiters.push(waiter)
        }
      }
    }
  })
  const guard =
    options.killAfterMs === undefined
      ? undefined
      : setTimeout(() => child.kill('SIGKILL'), options.killAfterMs)
  const result = new Promise<CliResult>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(guard)
      resolve({ code, signal, stdout, stderr })
    })
  })
  return {
    child,
    result,
    stderrLine: (predicate) =>
      new Promise((resolve, reject) => {
        const existing = stderr.split('\n').find(predicate)
        if (existing !== undefined) {
          resolve(existing)
          return
        }
        waiters.push({ predicate, resolve })
        void result.then(() =>
          reject(new Error(`rea exited before the expected stderr line; stderr:\n${stderr}`)),
        )
      }),
  }
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return startCli(args, options).result
}
