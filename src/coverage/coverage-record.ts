import type { CoverageRecord } from '../evidence/schema.js'
import { coverageVariablesIn } from '../scenario/coverage-variables.js'
import type { ResolvedScenario } from '../scenario/resolve.js'
import type { CaptureCoverage } from './capture-coverage.js'

/**
 * What the Evidence says of coverage: which coverage variables the program was launched with (by name) and, when
 * REA gave the capture its own folder, how many files the capture's processes wrote there. Call once every process
 * the capture owned has ended. Undefined when no coverage was collected.
 */
export function coverageRecord(
  resolved: ResolvedScenario,
  coverage: CaptureCoverage | undefined,
): CoverageRecord | undefined {
  const variables = coverageVariablesIn({ ...resolved.environment, ...coverage?.environment })
  if (variables.length === 0) {
    return undefined
  }
  return { variables, v8_files_written: coverage === undefined ? null : coverage.finish() }
}
