import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import {
  captureProcess,
  compareCaptures,
  isReaError,
  parseEvidence,
  serializeEvidence,
  type Evidence,
  type ProcessScenarioInput,
} from '../../src/index.js'
import { withTestDefaults } from '../../src/scenario/test-defaults.js'
import { REPO_ROOT } from '../helpers/fixtures.js'
import { runCli } from '../helpers/run-cli.js'

// The CLI of the coverage fixture project (test/fixtures/projects/runner-coverage): what it does after greeting
// comes from its first argument (greet, exit, spawn, wait, wait-exit-on-term, leave-child).
const PROJECT = path.join(REPO_ROOT, 'test/fixtures/projects/runner-coverage')
const scratch = mkdtempSync(path.join(tmpdir(), 'rea-coverage-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

let folders = 0
const freshFolder = () => path.join(scratch, `coverage-${folders++}`)

const cli = (mode: string, extra: Partial<ProcessScenarioInput> = {}): ProcessScenarioInput => ({
  executable: process.execPath,
  arguments: ['cli.cjs', mode],
  ...extra,
})

interface ScriptCoverage {
  readonly url: string
  readonly functions: { functionName: string; ranges: { count: number }[] }[]
}

/** Each coverage file in `folder`, read as Node wrote it. */
function coverageFiles(folder: string): { name: string; result: ScriptCoverage[] }[] {
  return readdirSync(folder).map((name) => ({
    name,
    ...(JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as { result: ScriptCoverage[] }),
  }))
}

/** How often each named function of `file` ran, summed over the coverage files in `folder`. */
function functionCounts(folder: string, file: string): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const { result } of coverageFiles(folder)) {
    for (const script of result.filter((entry) => entry.url.endsWith(`/${file}`))) {
      for (const fn of script.functions.filter((entry) => entry.functionName !== '')) {
        counts[fn.functionName] = (counts[fn.functionName] ?? 0) + (fn.ranges[0]?.count ?? 0)
      }
    }
  }
  return counts
}

async function captureWithCoverage(scenario: ProcessScenarioInput, folder = freshFolder()) {
  const evidence = await captureProcess(scenario, { root: PROJECT, coverage: { directory: folder } })
  return { evidence, folder }
}

/** What a committed file must never hold: where this machine kept the coverage. */
function expectNoFolderIn(evidence: Evidence, folder: string): void {
  const text = serializeEvidence(evidence)
  expect(text).not.toContain(folder)
  expect(text).not.toContain('.rea-capture-')
  expect(text).not.toContain(scratch)
}

/** Runs `body` with `variables` set in REA's own environment, as if inherited, and restores it after. */
async function withInherited<T>(variables: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]))
  Object.assign(process.env, variables)
  try {
    return await body()
  } finally {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) {
        Reflect.deleteProperty(process.env, name)
      } else {
        process.env[name] = value
      }
    }
  }
}

describe('captureProcess({ coverage })', () => {
  test('leaves the V8 coverage of the program in the folder, and the Evidence says only that it was collected', async () => {
    const { evidence, folder } = await captureWithCoverage(cli('greet'))
    expect(evidence.exit.code).toBe(0)
    expect(evidence.coverage).toEqual({ variables: ['NODE_V8_COVERAGE'], v8_files_written: 1 })
    // One file, moved up from the capture's private folder, which is gone.
    expect(readdirSync(folder)).toEqual([expect.stringMatching(/^coverage-\d+-\d+-\d+\.json$/)])
    expect(functionCounts(folder, 'lib.cjs')).toMatchObject({ greetFromCapture: 1, neverRun: 0 })
    expectNoFolderIn(evidence, folder)
  })

  test("covers the program's own children: each Node.js process writes its file", async () => {
    const { evidence, folder } = await captureWithCoverage(cli('spawn'))
    expect(evidence.coverage?.v8_files_written).toBe(2)
    expect(functionCounts(folder, 'child.cjs')).toEqual({ grandchildWork: 1 })
  })

  test('covers a program ending with process.exit() up to the exit', async () => {
    const { evidence, folder } = await captureWithCoverage(cli('exit'))
    expect(evidence.exit.code).toBe(3)
    expect(evidence.coverage?.v8_files_written).toBe(1)
    expect(functionCounts(folder, 'cli.cjs')).toMatchObject({ afterExit: 0 })
  })

  test('a program killed at its deadline writes nothing: Node writes coverage only when it exits', async () => {
    const { evidence, folder } = await captureWithCoverage(cli('wait', { timeout_ms: 3000 }))
    expect(evidence.disposition).toBe('timeout')
    expect(evidence.exit.signal).toBe(9)
    expect(evidence.coverage).toEqual({ variables: ['NODE_V8_COVERAGE'], v8_files_written: 0 })
    expect(readdirSync(folder)).toEqual([])
  })

  test('the finalization SIGTERM ends a Node.js program without a handler before it can write', async () => {
    const { evidence } = await captureWithCoverage(cli('wait', { timeout_ms: 3000, finalization_ms: 20_000 }))
    expect(evidence.exit.finalization?.signals.map((signal) => signal.signal)).toEqual(['SIGTERM'])
    expect(evidence.exit.signal).toBe(15)
    expect(evidence.coverage?.v8_files_written).toBe(0)
  })

  test('a program that exits on the finalization SIGTERM writes its coverage', async () => {
    const { evidence, folder } = await captureWithCoverage(
      cli('wait-exit-on-term', { timeout_ms: 3000, finalization_ms: 20_000 }),
    )
    expect(evidence.exit.finalization?.exit_code).toBe(0)
    expect(evidence.coverage?.v8_files_written).toBe(1)
    expect(functionCounts(folder, 'cli.cjs')).toMatchObject({ waitForever: 1 })
  })

  test("a child still running when the program exits is ended by REA's cleanup and writes nothing", async () => {
    const { evidence, folder } = await captureWithCoverage(cli('leave-child'))
    expect(evidence.cleanup.killed.length).toBeGreaterThan(0)
    expect(evidence.coverage?.v8_files_written).toBe(1)
    expect(functionCounts(folder, 'child.cjs')).toEqual({})
  })

  test('a program that is not Node.js writes nothing, and nothing complains', async () => {
    const { evidence, folder } = await captureWithCoverage({
      executable: 'sh',
      arguments: ['-c', 'echo not node'],
    })
    expect(evidence.exit.code).toBe(0)
    expect(evidence.coverage).toEqual({ variables: ['NODE_V8_COVERAGE'], v8_files_written: 0 })
    expect(readdirSync(folder)).toEqual([])
  })

  test('two captures of the same program at once share a folder without mixing their counts', async () => {
    const folder = freshFolder()
    const [first, second] = await Promise.all([
      captureWithCoverage(cli('greet'), folder),
      captureWithCoverage(cli('greet'), folder),
    ])
    expect(first.evidence.coverage?.v8_files_written).toBe(1)
    expect(second.evidence.coverage?.v8_files_written).toBe(1)
    expect(readdirSync(folder)).toHaveLength(2)
    expect(functionCounts(folder, 'lib.cjs')).toMatchObject({ greetFromCapture: 2 })
  })

  test('changes no verdict: a capture with coverage and one without compare equivalent, either way round', async () => {
    const without = await captureProcess(cli('greet'), { root: PROJECT })
    const { evidence: withCoverage } = await captureWithCoverage(cli('greet'))
    expect(without.coverage).toBeUndefined()
    expect(withCoverage.coverage).toBeDefined()
    expect(withCoverage.commitments).toEqual(without.commitments)
    expect(compareCaptures(without, withCoverage).verdict).toBe('equivalent')
    expect(compareCaptures(withCoverage, without).verdict).toBe('equivalent')
  })

  test('records an inherited NODE_V8_COVERAGE by name, without a count: the folder is not the capture’s', async () => {
    const inherited = freshFolder()
    const evidence = await withInherited({ NODE_V8_COVERAGE: inherited }, () =>
      captureProcess(cli('greet'), { root: PROJECT }),
    )
    expect(evidence.coverage).toEqual({ variables: ['NODE_V8_COVERAGE'], v8_files_written: null })
    expect(readdirSync(inherited)).toHaveLength(1)
    expectNoFolderIn(evidence, inherited)
  })

  test("other toolchains' coverage variables, inherited, reach a program in the test environment; the Evidence names them only", async () => {
    const folder = freshFolder()
    mkdirSync(folder, { recursive: true })
    const inherited = {
      LLVM_PROFILE_FILE: path.join(folder, '%p-%m.profraw'),
      GOCOVERDIR: folder,
      COVERAGE_PROCESS_START: path.join(folder, '.coveragerc'),
    }
    // What an instrumented Go or LLVM binary and coverage.py do with them: write where they point.
    const writes =
      'touch "$GOCOVERDIR/covmeta.go" "$COVERAGE_PROCESS_START" "$(dirname "$LLVM_PROFILE_FILE")/p.profraw"'
    const evidence = await withInherited(inherited, () =>
      captureProcess(withTestDefaults({ executable: 'sh', arguments: ['-c', writes] }), { root: PROJECT }),
    )
    expect(evidence.exit.code).toBe(0)
    expect(readdirSync(folder).sort()).toEqual(['.coveragerc', 'covmeta.go', 'p.profraw'])
    expect(evidence.coverage).toEqual({
      variables: ['LLVM_PROFILE_FILE', 'GOCOVERDIR', 'COVERAGE_PROCESS_START'],
      v8_files_written: null,
    })
    expectNoFolderIn(evidence, folder)
  })

  test('rejects a scenario that sets or removes a coverage variable, before anything runs', async () => {
    const rejected = await captureProcess(
      cli('greet', { environment: { NODE_V8_COVERAGE: '/tmp/elsewhere', GOCOVERDIR: null } }),
      { root: PROJECT },
    ).catch((error: unknown) => error)
    expect(isReaError(rejected) && rejected.code).toBe('INVALID_SCENARIO')
    expect(isReaError(rejected) && rejected.issues.map((issue) => [issue.path, issue.rule])).toEqual([
      ['environment.NODE_V8_COVERAGE', 'coverage_variable'],
      ['environment.GOCOVERDIR', 'coverage_variable'],
    ])
  })

  test('a folder REA cannot create is an invalid argument: nothing runs', async () => {
    const file = path.join(scratch, 'a-file')
    writeFileSync(file, '')
    const rejected = await captureProcess(cli('greet'), {
      root: PROJECT,
      coverage: { directory: path.join(file, 'below') },
    }).catch((error: unknown) => error)
    expect(isReaError(rejected) && rejected.code).toBe('INVALID_ARGUMENTS')
    expect(isReaError(rejected) && rejected.issues[0]?.message).toMatch(/ENOTDIR/)
  })
})

describe('rea capture-process --coverage <dir>', () => {
  test('leaves the coverage files in <dir>, relative to the current directory', async () => {
    const scenario = path.join(scratch, 'greet.json')
    writeFileSync(scenario, JSON.stringify(cli('greet')))
    const result = await runCli(['capture-process', scenario, '--json', '--coverage', 'cli-coverage'], {
      cwd: PROJECT,
    })
    const folder = path.join(PROJECT, 'cli-coverage')
    try {
      expect(result.code, result.stderr).toBe(0)
      const evidence = parseEvidence(JSON.parse(result.stdout))
      expect(evidence.coverage).toEqual({ variables: ['NODE_V8_COVERAGE'], v8_files_written: 1 })
      expect(coverageFiles(folder)).toHaveLength(1)
      expect(functionCounts(folder, 'lib.cjs')).toMatchObject({ greetFromCapture: 1 })
      expect(result.stdout).not.toContain(folder)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })

  test('names the folder it cannot create, exits 3 and runs nothing', async () => {
    const scenario = path.join(scratch, 'greet-bad.json')
    writeFileSync(scenario, JSON.stringify(cli('greet')))
    // Node's own recursive mkdir loops forever on this path: the guard turns a regression into a failure.
    const result = await runCli(['capture-process', scenario, '--coverage', '/proc/rea-no-such/cov'], {
      cwd: PROJECT,
      killAfterMs: 60_000,
    })
    expect(result.code).toBe(3)
    expect(result.stderr).toContain('coverage.directory')
    expect(result.stderr).toContain('/proc/rea-no-such/cov')
    expect(result.stdout).toBe('')
  })
})
