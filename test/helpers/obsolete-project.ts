import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'
import type { RunnerCliResult } from './run-runner-cli.js'

/** One obsolete authority as the report's index.json lists it. */
export interface IndexedObsolete {
  readonly path: string
  readonly test_file: string
  readonly reason: string
  readonly removed: boolean
}

/** The obsolete authority files the last run's report lists. */
export function obsoleteInIndex(project: string): IndexedObsolete[] {
  const index = JSON.parse(readFileSync(path.join(project, 'rea-report/index.json'), 'utf8')) as {
    obsolete_authorities: IndexedObsolete[]
  }
  return index.obsolete_authorities
}

/** A runner's CLI in a fixture project: `env` holds the fixture's switches. */
type ProjectRunner = (
  project: string,
  args: string[],
  env?: Record<string, string>,
) => Promise<RunnerCliResult>

const recordings = new WeakMap<(from?: string) => string, Promise<string>>()

/**
 * A fresh copy of a fixture project whose authorities one plain run recorded, on a quiet machine; `authority`
 * (relative to the project) must exist afterwards. The run happens once per `copy`: later calls copy the recorded
 * project, as a checkout of a repository with committed authorities would be, which spares a runner's start.
 */
export async function recordedProject(
  copy: (from?: string) => string,
  run: ProjectRunner,
  authority: string,
): Promise<string> {
  let recording = recordings.get(copy)
  if (recording === undefined) {
    recording = record(copy(), run, authority)
    recordings.set(copy, recording)
  }
  return copy(await recording)
}

async function record(project: string, run: ProjectRunner, authority: string): Promise<string> {
  // The recording run also compares: a retried test matches the authority its first attempt wrote. Times are no
  // subject of a recording (they are recorded whatever the policy), and on a loaded machine a stall once moved the
  // first attempt's exit of `echo` to 1,104 ms, against 229 ms on the retry.
  const recorded = await run(project, [], { FIXTURE_TIMING: 'ignore' })
  expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0)
  expect(existsSync(path.join(project, authority))).toBe(true)
  return project
}
