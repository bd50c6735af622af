import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const execute = promisify(execFile)

export interface RunnerCliResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/**
 * What this worker's own Vitest (and Vite) put into its environment: a runner started from here must not
 * believe it runs inside another (an inherited SSR=1 makes Vite resolve Node built-ins as files).
 */
const RUNNER_VARIABLES = new Set([
  'VITEST',
  'TEST',
  'NODE_ENV',
  'PROD',
  'DEV',
  'MODE',
  'BASE_URL',
  'SSR',
  'FORCE_TTY',
])

/**
 * Runs a test runner's real CLI (`node <script> ...args`) in a fixture project. The outer environment's CI,
 * GitHub and REA report variables are dropped, so each run states for itself where it runs (a null in `env`
 * removes one more); a failing run is a result with its exit code, not an exception.
 */
export async function runRunnerCli(
  script: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string | null> = {},
): Promise<RunnerCliResult> {
  const outer = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) =>
        name !== 'CI' &&
        !name.startsWith('GITHUB_') &&
        !name.startsWith('REA_REPORT') &&
        !RUNNER_VARIABLES.has(name) &&
        !name.startsWith('VITEST_'),
    ),
  )
  // A null in `env` removes the variable (NO_COLOR included).
  const merged = { ...outer, NO_COLOR: '1', ...env }
  const environment = Object.fromEntries(
    Object.entries(merged).filter(([, value]) => typeof value === 'string'),
  )
  try {
    const { stdout, stderr } = await execute(process.execPath, [script, ...args], {
      cwd,
      env: environment,
      maxBuffer: 64 * 1024 * 1024,
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' }
  }
}
