import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  captureProcess,
  compareCaptures,
  comparisonSchema,
  formatComparison,
  isReaError,
  serializeEvidence,
  type Evidence,
  type ProcessScenarioInput,
} from '../../src/index.js'
import { program } from '../helpers/fixtures.js'
import { runCli } from '../helpers/run-cli.js'

const roots: string[] = []
afterAll(() => {
  for (const root of roots) {
    rmSync(root, { recursive: true, force: true })
  }
})

/** Each capture gets a fresh capture root, as a clone elsewhere would: the contract does not include it. */
function freshRoot(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'rea-compare-'))
  roots.push(root)
  return root
}

// The prompt answer is typed well after the prompt appears even on a loaded machine, so every checkpoint
// frame shows the same screen in every run.
const jobScenario = (
  args: string[] = [],
  overrides: Partial<ProcessScenarioInput> = {},
): ProcessScenarioInput => ({
  executable: program('job.mjs'),
  arguments: args,
  events: [{ type: 'input', data: 'Ada\r', after: { output: 'Name: ' } }],
  filesystem_observation_paths: ['out'],
  settle_ms: 50,
  ...overrides,
})

const capture = (scenario: ProcessScenarioInput) => captureProcess(scenario, { root: freshRoot() })

function writeCapture(evidence: Evidence): string {
  const file = path.join(freshRoot(), 'capture.json')
  writeFileSync(file, serializeEvidence(evidence))
  return file
}

describe('compareCaptures on real captures', () => {
  let authority: Evidence
  beforeAll(async () => {
    authority = await capture(jobScenario())
  }, 30_000)

  test(
    'the same deterministic scenario compares equivalent, 20 times out of 20',
    { timeout: 120_000 },
    async () => {
      authority = await capture(jobScenario())
      expect(authority.exit.code).toBe(0)
      const verdicts: string[] = []
      // Two at a time: concurrency is part of what must not make identical runs look different. Times are left
      // out: with other test files running on two cores, one capture in twenty was seen to stall 640 ms (beyond
      // the tolerant policy's 500 ms), which says how loaded the machine was, not how REA records a program.
      // Every other dimension must match; the timing policies have tests of their own.
      for (let round = 0; round < 10; round++) {
        const pair = await Promise.all([capture(jobScenario()), capture(jobScenario())])
        for (const reconstruction of pair) {
          const comparison = compareCaptures(authority, reconstruction, { timing: 'ignore' })
          if (comparison.verdict !== 'equivalent') {
            verdicts.push(formatComparison(comparison, { color: false }))
          } else {
            verdicts.push('equivalent')
          }
        }
      }
      expect(verdicts.filter((verdict) => verdict !== 'equivalent')).toEqual([])
      expect(verdicts).toHaveLength(20)
    },
  )

  test('one changed byte is different and located in stream, frame and file', async () => {
    const reconstruction = await capture(jobScenario(['--greeting', 'Hallo']))
    const comparison = compareCaptures(authority, reconstruction)
    expect(comparison.verdict).toBe('different')
    expect(comparisonSchema.parse(comparison)).toEqual(comparison)
    const first = comparison.first_divergence!
    expect(first.field).toBe('terminal.stream')
    expect(first.location).toMatchObject({ kind: 'terminal_stream', column: 2 })
    const location = first.location as Extract<typeof first.location, { kind: 'terminal_stream' }>
    // The byte offset points at the "e" of "Hello" in both streams, whatever their chunking.
    const text = authority.terminal.chunks.map((chunk) => chunk.data).join('')
    expect(
      Buffer.from(text)
        .subarray(location.byte_offset - 1, location.byte_offset + 4)
        .toString(),
    ).toBe('Hello')
    const chunk = authority.terminal.chunks[location.authority!.chunk_index]!
    expect(Buffer.from(chunk.data).subarray(location.authority!.chunk_byte_offset).toString()).toMatch(
      /^ello/,
    )
    const frame = comparison.dimensions.terminal.differences.find(
      (difference) => difference.field === 'terminal.frames.lines',
    )
    expect(frame?.location).toMatchObject({ kind: 'terminal_frame', trigger: 'final', column: 2 })
    expect(comparison.dimensions.filesystem.outcome).toBe('equal')
    expect(comparison.terminal_diff!.unified).toContain('-Hello, Ada!')
    expect(comparison.terminal_diff!.unified).toContain('+Hallo, Ada!')
    expect(formatComparison(comparison, { color: false })).toMatch(
      /First divergence the normalized terminal output differs at terminal byte \d+ \(line \d+, column 2/,
    )
  })

  test('a version 1.2.3 against 1.2.4 is different, in the terminal and in the report digest', async () => {
    const [a, b] = await Promise.all([
      capture(jobScenario(['--version', '1.2.3'])),
      capture(jobScenario(['--version', '1.2.4'])),
    ])
    const comparison = compareCaptures(a, b)
    expect(comparison.verdict).toBe('different')
    expect(comparison.dimensions.terminal.outcome).toBe('different')
    expect(comparison.dimensions.filesystem.differences).toEqual([
      expect.objectContaining({
        field: 'filesystem.files[root_0:report.json].sha256',
        location: { kind: 'file', path: 'root_0:report.json' },
      }),
    ])
  })

  test('random listening ports compare equivalent; with ports: false they differ', async () => {
    const [a, b] = await Promise.all([capture(jobScenario(['--listen'])), capture(jobScenario(['--listen']))])
    expect(a.terminal.chunks.some((chunk) => chunk.raw_data !== undefined)).toBe(true)
    expect(compareCaptures(a, b).verdict).toBe('equivalent')
    const raw = { normalization: { ports: false } }
    const [c, d] = await Promise.all([
      capture(jobScenario(['--listen'], raw)),
      capture(jobScenario(['--listen'], raw)),
    ])
    const comparison = compareCaptures(c, d)
    expect(comparison.verdict).toBe('different')
    expect(comparison.first_divergence?.authority).toMatch(/127\.0\.0\.1:\d/)
  })

  test('an exit code and a file mode each make their own dimension different', async () => {
    const [exited, moded] = await Promise.all([
      capture(jobScenario(['--exit', '3'])),
      capture(jobScenario(['--mode', '600'])),
    ])
    const exit = compareCaptures(authority, exited)
    expect(exit.dimensions.exit.differences).toEqual([
      expect.objectContaining({ field: 'exit.code', authority: 0, reconstruction: 3 }),
    ])
    const mode = compareCaptures(authority, moded)
    expect(mode.dimensions.filesystem.differences).toEqual([
      expect.objectContaining({
        field: 'filesystem.files[root_0:log.txt].mode',
        authority: '0644',
        reconstruction: '0600',
      }),
    ])
  })

  test('truncated captures with an equal prefix are unknown, never equivalent', async () => {
    const scenario = jobScenario([], { limits: { output_bytes: 40 } })
    const [a, b] = await Promise.all([capture(scenario), capture(scenario)])
    expect(a.truncated).toBe(true)
    const comparison = compareCaptures(a, b)
    expect(comparison.verdict).toBe('unknown')
    expect(comparison.dimensions.terminal.outcome).toBe('unknown')
    expect(comparison.unknowns).toContainEqual(
      expect.objectContaining({ dimension: 'terminal', reason: 'terminal_incomplete' }),
    )
  })

  test('rejects differing contracts, naming every differing field', async () => {
    const other = await capture(jobScenario([], { terminal: { columns: 100, rows: 24 }, settle_ms: 60 }))
    let error: unknown
    try {
      compareCaptures(authority, other)
    } catch (caught) {
      error = caught
    }
    expect(isReaError(error) && error.code).toBe('CONTRACT_MISMATCH')
    expect(isReaError(error) && error.issues.map((issue) => issue.path)).toEqual([
      'comparison_contract.settle_ms',
      'comparison_contract.terminal.columns',
    ])
  })

  test('proposes a redaction for the pid a real program prints, and it makes the captures equivalent', async () => {
    const pidScenario = (): ProcessScenarioInput => ({
      executable: '/bin/sh',
      arguments: ['-c', 'echo "started worker $$"; echo done'],
      settle_ms: 50,
    })
    const [first, second] = [await capture(pidScenario()), await capture(pidScenario())]
    const comparison = compareCaptures(first, second)
    expect(comparison.dimensions.terminal.outcome).toBe('different')
    expect(comparison.redaction_hint?.redactions).toEqual([
      { regex: 'worker (?<redacted>\\d+)', replacement: '[NUMBER]' },
    ])
    expect(formatComparison(comparison, { color: false })).toContain(
      'Redaction hint: every terminal difference',
    )
    const redacted = (): ProcessScenarioInput => ({
      ...pidScenario(),
      normalization: { redactions: comparison.redaction_hint?.redactions ?? [] },
    })
    const again = compareCaptures(await capture(redacted()), await capture(redacted()))
    expect(again.dimensions.terminal.outcome).toBe('equal')
  }, 30_000)
})

describe('rea compare-process-captures', () => {
  test('exits 0, 1 and 2 by verdict and prints the document with --json', { timeout: 60_000 }, async () => {
    const [a, b, c] = await Promise.all([
      capture(jobScenario()),
      capture(jobScenario()),
      capture(jobScenario(['--greeting', 'Hallo'])),
    ])
    const [fileA, fileB, fileC] = [writeCapture(a), writeCapture(b), writeCapture(c)]
    const equal = await runCli(['compare-process-captures', fileA, fileB])
    expect(equal.code, equal.stderr).toBe(0)
    expect(equal.stdout).toMatch(/^REA comparison equivalent/)
    const different = await runCli(['compare-process-captures', fileA, fileC, '--json'])
    expect(different.code).toBe(1)
    const document = comparisonSchema.parse(JSON.parse(different.stdout))
    expect(document.authority.source).toBe(fileA)
    expect(document.first_divergence?.field).toBe('terminal.stream')

    const scenario = jobScenario([], { limits: { output_bytes: 40 } })
    const [t, u] = await Promise.all([capture(scenario), capture(scenario)])
    const unknown = await runCli(['compare-process-captures', writeCapture(t), writeCapture(u)])
    expect(unknown.code).toBe(2)
    expect(unknown.stdout).toContain('terminal_incomplete')
  })

  test('rejects edited, garbage and wrongly shaped files with exit 3 and names both bad files', async () => {
    const a = await capture(jobScenario())
    const file = writeCapture(a)
    const edited = path.join(freshRoot(), 'edited.json')
    writeFileSync(edited, serializeEvidence({ ...a, exit: { ...a.exit, code: 9 } }))
    const result = await runCli(['compare-process-captures', file, edited])
    expect(result.code).toBe(3)
    expect(result.stderr).toContain('identity_digest')
    expect(result.stderr).toContain('edited or corrupted')
    expect(result.stderr).not.toMatch(/\n\s+at /)

    const garbage = path.join(freshRoot(), 'garbage.json')
    writeFileSync(garbage, 'not json at all')
    const noDetails = path.join(freshRoot(), 'legacy.json')
    const { truncation_details: _dropped, ...legacy } = a
    writeFileSync(noDetails, JSON.stringify(legacy))
    const both = await runCli(['compare-process-captures', garbage, noDetails])
    expect(both.code).toBe(3)
    expect(both.stderr).toContain(`${garbage} is not valid JSON`)
    expect(both.stderr).toContain('truncation_details: is missing')

    const usage = await runCli(['compare-process-captures', file])
    expect(usage.code).toBe(3)
    expect(usage.stderr).toContain('Usage: rea compare-process-captures')
  })

  test('--timing takes tolerant, strict, ignore or an explicit tolerance, and names a bad one', async () => {
    const sleepy = (seconds: string): ProcessScenarioInput => ({
      executable: 'bash',
      arguments: ['-c', `sleep ${seconds}; echo hi`],
    })
    const [quick, slow] = await Promise.all([capture(sleepy('0.2')), capture(sleepy('1.5'))])
    const [fileA, fileB] = [writeCapture(quick), writeCapture(slow)]
    const codes: Record<string, number> = {}
    for (const timing of ['tolerant', 'strict', 'ignore', 'tolerance_ms=5000,ratio=0']) {
      const result = await runCli(['compare-process-captures', fileA, fileB, '--timing', timing, '--json'])
      codes[timing] = result.code ?? -1
      if ((result.code ?? 3) < 3) {
        expect(comparisonSchema.parse(JSON.parse(result.stdout)).timing.policy).toBe(
          timing.includes('=') ? 'tolerance' : timing,
        )
      }
    }
    expect(codes).toEqual({ tolerant: 1, strict: 1, ignore: 0, 'tolerance_ms=5000,ratio=0': 0 })
    const ignored = await runCli(['compare-process-captures', fileA, fileB, '--timing', 'ignore'])
    expect(ignored.stdout).toContain('exit.at_ms not compared (timing: ignore)')

    const bad = await runCli([
      'compare-process-captures',
      fileA,
      fileB,
      '--timing',
      'tolerance_ms=-5,ratio=2',
    ])
    expect(bad.code).toBe(3)
    expect(bad.stderr).toContain('--timing.tolerance_ms: must be a whole number of milliseconds')
    expect(bad.stderr).toContain('--timing.ratio: must be a number from 0 to 1')
    expect(bad.stderr).toContain('--timing tolerance_ms=500,ratio=0.75')
    const unknown = await runCli(['compare-process-captures', fileA, fileB, '--timing', 'fast'])
    expect(unknown.code).toBe(3)
    expect(unknown.stderr).toContain('"tolerant", "strict", "ignore" or { tolerance_ms, ratio }: got "fast"')
  })

  test('prints the trace and comparison JSON Schemas', async () => {
    for (const name of ['trace', 'comparison']) {
      const result = await runCli(['schema', name])
      expect(result.code).toBe(0)
      expect(JSON.parse(result.stdout)).toHaveProperty('$schema')
    }
  })
})
