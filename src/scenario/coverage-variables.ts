/**
 * The environment variables that make a program write coverage: Node's V8 coverage, LLVM's profiles (Rust, C and
 * C++ built with `-C instrument-coverage` or `-fprofile-instr-generate`), Go binaries built with `-cover`, and
 * coverage.py's start-up hook. Coverage is observation, not behaviour: these variables stay outside the comparison
 * contract. A scenario may not name them (its environment is committed), REA's test environment never removes
 * them, and a `*` removal in a scenario leaves them inherited. The Evidence records which were set, never their
 * values (folders of one machine).
 */
export const COVERAGE_VARIABLES = [
  'NODE_V8_COVERAGE',
  'LLVM_PROFILE_FILE',
  'GOCOVERDIR',
  'COVERAGE_PROCESS_START',
] as const

export type CoverageVariable = (typeof COVERAGE_VARIABLES)[number]

/** The variable through which REA itself collects a Node program's coverage, one folder per capture. */
export const NODE_V8_COVERAGE: CoverageVariable = 'NODE_V8_COVERAGE'

export function isCoverageVariable(name: string): name is CoverageVariable {
  return (COVERAGE_VARIABLES as readonly string[]).includes(name)
}

/** The coverage variables set (non-empty) in a program's launch environment, in the order of the list above. */
export function coverageVariablesIn(environment: Readonly<Record<string, string>>): CoverageVariable[] {
  return COVERAGE_VARIABLES.filter((name) => (environment[name] ?? '') !== '')
}
