import { isPlainObject } from '../internal/plain-object.js'
import type { ProcessScenarioInput } from './schema.js'
import { TEST_ENVIRONMENT } from './test-environment.js'

/**
 * Placeholders the test plugin's captures use unless the scenario names its own: the paths of one checkout and
 * the paths and names of one machine, so an authority recorded in one clone, by one user on one host, holds in
 * another. The user and host name are whole words only (`ada` in `ada@host`, not in `adam`), and a value under
 * three characters is skipped.
 */
export const TEST_DEFAULT_PLACEHOLDERS = ['root', 'cwd', 'home', 'tmpdir', 'user', 'hostname'] as const

/**
 * Filters the test plugin's captures use unless the scenario names its own `filters`, chosen on a corpus of real
 * commands and behaviour changes (bench/machine-corpus.mjs): with these, mktemp, Node and Python temporary names
 * and the times test runners measure (`(1.755143ms)`, `Ran 1 test in 0.013s`) hold, and no change becomes
 * equivalent. `measured_durations` takes only numbers with a decimal part, so a configured duration changing
 * (`retrying in 5s` against `10s`) still fails; `durations`, `timestamps`, `uuids` and `hex_ids` each hid a real
 * change there (that back-off, a release date moved, a name-based uuid, a file checksum), so a test names them
 * itself (docs/normalization.md).
 */
export const TEST_DEFAULT_FILTERS = ['temp_names', 'measured_durations'] as const

/** How a project changes the test environment (`configureRea` in Vitest and Jest). */
export interface TestEnvironmentOptions {
  /** Entries added to the test environment or replacing its own: a value pins, `null` removes. */
  readonly environment?: Readonly<Record<string, string | null>>
  /** `true`: no test environment at all, everything is inherited; names: those entries are left out of it. */
  readonly inheritEnvironment?: true | readonly string[]
}

/** The environment entries REA adds to a test capture's scenario, after the project's choices. */
export function testEnvironment(options: TestEnvironmentOptions = {}): Record<string, string | null> {
  const inherit = options.inheritEnvironment
  if (inherit === true) {
    return { ...options.environment }
  }
  const kept = Object.entries(TEST_ENVIRONMENT).filter(([name]) => inherit?.includes(name) !== true)
  return { ...Object.fromEntries(kept), ...options.environment }
}

/**
 * A scenario as the test plugin runs it: REA's test defaults (the test environment, placeholders and filters)
 * written into the scenario itself, so they are in its commitments and contract for anyone to see, and the same
 * on every machine. What the scenario says wins, name by name. Input that is not an object is passed on
 * untouched for validation to report.
 */
export function withTestDefaults(
  scenario: ProcessScenarioInput,
  options: TestEnvironmentOptions = {},
): ProcessScenarioInput {
  const input: unknown = scenario
  if (!isPlainObject(input)) {
    return scenario
  }
  const normalization: unknown = scenario.normalization
  const environment: unknown = scenario.environment
  if (!absentOrObject(normalization) || !absentOrObject(environment)) {
    return scenario
  }
  const given = (normalization ?? {}) as NonNullable<ProcessScenarioInput['normalization']>
  return {
    ...scenario,
    environment: { ...testEnvironment(options), ...(environment as ProcessScenarioInput['environment']) },
    normalization: {
      ...given,
      placeholders: given.placeholders ?? [...TEST_DEFAULT_PLACEHOLDERS],
      filters: given.filters ?? [...TEST_DEFAULT_FILTERS],
    },
  }
}

/** Absent, or an object: anything else is left for validation to name. */
function absentOrObject(value: unknown): boolean {
  return value === undefined || isPlainObject(value)
}
