import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { captureProcess, isReaError, type ProcessScenarioInput } from '../../src/index.js'
import { program } from '../helpers/fixtures.js'

let directory: string
let marker: string
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'rea-validation-'))
  marker = path.join(directory, 'ran')
})
afterEach(() => rmSync(directory, { recursive: true, force: true }))

/** A scenario that would create the marker file if it ran at all. */
const runsMarker = (overrides: Record<string, unknown>): ProcessScenarioInput => ({
  executable: program('touch-marker.mjs'),
  arguments: [marker],
  ...overrides,
})

const cases: { rule: string; path: string; overrides: () => Record<string, unknown> }[] = [
  {
    rule: 'event_order',
    path: 'events[1].at_ms',
    overrides: () => ({
      events: [
        { type: 'input', at_ms: 50, data: 'a' },
        { type: 'input', at_ms: 10, data: 'b' },
      ],
    }),
  },
  {
    rule: 'event_within_timeout',
    path: 'events[0].at_ms',
    overrides: () => ({ timeout_ms: 100, events: [{ type: 'signal', at_ms: 101, signal: 'SIGINT' }] }),
  },
  {
    rule: 'cell_budget',
    path: 'terminal',
    overrides: () => ({ terminal: { columns: 1000, rows: 1, scrollback: 1000 } }),
  },
  {
    rule: 'cell_budget',
    path: 'events[0]',
    overrides: () => ({ events: [{ type: 'resize', at_ms: 0, columns: 1001, rows: 24 }] }),
  },
  {
    rule: 'lifecycle_budget',
    path: 'timeout_ms',
    overrides: () => ({ timeout_ms: Number.MAX_SAFE_INTEGER, settle_ms: 1 }),
  },
  {
    rule: 'reserved_variable',
    path: 'environment.REA_RUN_TOKEN',
    overrides: () => ({ environment: { REA_RUN_TOKEN: 'x' } }),
  },
  { rule: 'unknown_field', path: 'timeout', overrides: () => ({ timeout: 5 }) },
  { rule: 'type', path: 'arguments', overrides: () => ({ arguments: 'not-an-array' }) },
  { rule: 'minimum', path: 'terminal.columns', overrides: () => ({ terminal: { columns: 1 } }) },
  {
    rule: 'choice',
    path: 'events[0].signal',
    overrides: () => ({ events: [{ type: 'signal', at_ms: 0, signal: 'SIGFOO' }] }),
  },
  {
    rule: 'directory_exists',
    path: 'working_directory',
    overrides: () => ({ working_directory: 'missing-directory' }),
  },
  {
    rule: 'executable_found',
    path: 'executable',
    overrides: () => ({ executable: 'rea-no-such-program', environment: { PATH: directory } }),
  },
  {
    rule: 'environment_name',
    path: 'environment.__proto__',
    // As JSON.parse reads a scenario file: "__proto__" is an own key there.
    overrides: () => ({ environment: JSON.parse('{"__proto__": "x"}') as Record<string, string> }),
  },
  {
    rule: 'exec_string_size',
    path: 'arguments[1]',
    overrides: () => ({ arguments: [marker, 'x'.repeat(200_000)] }),
  },
  {
    rule: 'exec_string_size',
    path: 'environment.BIG',
    overrides: () => ({ environment: { BIG: 'x'.repeat(200_000) } }),
  },
  {
    rule: 'exec_size',
    path: 'arguments',
    // Each argument within the per-string limit, together far over any host's argument area.
    overrides: () => ({ arguments: [marker, ...Array.from({ length: 80 }, () => 'x'.repeat(100_000))] }),
  },
]

describe('captureProcess validation', () => {
  test.for(cases)(
    'rejects a scenario breaking $rule at $path and runs nothing',
    async ({ rule, path: issuePath, overrides }) => {
      // The same scenario without the mistake does run: the check below is not vacuous.
      const error: unknown = await captureProcess(runsMarker(overrides()), { root: directory }).then(
        () => undefined,
        (caught: unknown) => caught,
      )
      expect(isReaError(error) && error.code).toBe('INVALID_SCENARIO')
      expect(isReaError(error) ? error.issues : []).toContainEqual(
        expect.objectContaining({ rule, path: issuePath }),
      )
      expect(existsSync(marker)).toBe(false)
    },
  )

  test('runs the same scenario when it is valid', async () => {
    const evidence = await captureProcess(runsMarker({}), { root: directory })
    expect(evidence.exit.code).toBe(0)
    expect(existsSync(marker)).toBe(true)
  })

  test('reports every problem of a scenario at once', async () => {
    const error: unknown = await captureProcess(
      runsMarker({
        bogus: 1,
        terminal: { columns: 5000, rows: 300 },
        events: [{ type: 'input', at_ms: 40_000, data: 'x' }],
      }),
    ).catch((caught: unknown) => caught)
    const rules = isReaError(error) ? error.issues.map((issue) => issue.rule).sort() : []
    expect(rules).toEqual(['cell_budget', 'event_within_timeout', 'unknown_field'])
  })
})
