import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const execute = promisify(execFile)

export interface RunnerCliResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs a test runner's real CLI (`node <script> ...args`) in a fixture project. The outer environment's CI,
 * GitHub and REA report variables are dropped, so each run states for itself where it runs; a failing run is
 * a result with its exit code, not an exception.
 */
export async function runRunnerCli(
  script: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<RunnerCliResult> {
  const outer = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => name !== 'CI' && !name.startsWith('GITHUB_') && !name.startsWith('REA_REPORT'),
    ),
  )
  try {
    const { stdout, stderr } = await execute(process.execPath, [script, ...args], {
      cwd,
      env: { ...outer, NO_COLOR: '1', ...env },
      maxBuffer: 64 * 1024 * 1024,
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' }
  }
}
