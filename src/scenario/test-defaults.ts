import type { ProcessScenarioInput } from './schema.js'

/**
 * Placeholders the test plugin's captures use unless the scenario names its own: the paths of one checkout and
 * one machine, so an authority recorded in one clone holds in another. User and host names are left out: they
 * are short words that also occur in ordinary output.
 */
export const TEST_DEFAULT_PLACEHOLDERS = ['root', 'cwd', 'home', 'tmpdir'] as const

/**
 * A scenario as the test plugin runs it: REA's test defaults written into the scenario itself, so they are in
 * its commitments and contract for anyone to see. What the scenario says wins. Input that is not an object is
 * passed on untouched for validation to report.
 */
export function withTestDefaults(scenario: ProcessScenarioInput): ProcessScenarioInput {
  const input: unknown = scenario
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return scenario
  }
  const normalization: unknown = scenario.normalization
  if (normalization !== undefined && (typeof normalization !== 'object' || normalization === null)) {
    return scenario
  }
  const given = (normalization ?? {}) as NonNullable<ProcessScenarioInput['normalization']>
  return {
    ...scenario,
    normalization: { ...given, placeholders: given.placeholders ?? [...TEST_DEFAULT_PLACEHOLDERS] },
  }
}
