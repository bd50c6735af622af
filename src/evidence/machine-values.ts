import path from 'node:path'
import { resolvePlaceholders, type PlaceholderContext } from '../normalize/placeholder-values.js'
import { PlaceholderRule, PLACEHOLDER_TOKENS, type PlaceholderName } from '../normalize/placeholders.js'
import { PLACEHOLDER_NAMES } from '../scenario/schema.js'
import type { Evidence } from './schema.js'

// Frozen: documents commit this version, so a change to what is rewritten, or how, needs a new one.

/**
 * How a stored document (an authority file) holds the values of its placeholders: as their tokens, wherever they
 * occur outside the comparison text, which the placeholders themselves already made.
 */
export const MACHINE_VALUES_VERSION = 'placeholder-tokens-v1'

/** The values of one capture's context, for the capture's own process: never written anywhere. */
const contexts = new WeakMap<object, PlaceholderContext>()

/** The environment variables placeholders read; the rest of the command's environment is not kept. */
const PLACEHOLDER_VARIABLES = ['HOME', 'TMPDIR', 'USER', 'LOGNAME'] as const

/** Keeps, for this process only, what the capture's placeholders resolve from (its root, folder, environment). */
export function rememberPlaceholderContext(evidence: object, context: PlaceholderContext): void {
  const environment = Object.fromEntries(
    PLACEHOLDER_VARIABLES.flatMap((name) => {
      const value = context.environment[name]
      return value === undefined ? [] : [[name, value]]
    }),
  )
  contexts.set(evidence, {
    root: context.root,
    workingDirectory: context.workingDirectory,
    environment,
  })
}

/**
 * What a capture's placeholders resolve from: remembered for a capture made in this process; for one read from a
 * file, its recorded capture root and working directory, with the environment this process has (the scenario's
 * own values first), which is the machine's.
 */
export function placeholderContextOf(evidence: Evidence): PlaceholderContext {
  const remembered = contexts.get(evidence)
  if (remembered !== undefined) {
    return remembered
  }
  const contract = evidence.commitments.comparison_contract.value
  const root = evidence.host.capture_root
  const environment: Record<string, string> = {}
  for (const name of PLACEHOLDER_VARIABLES) {
    const value = Object.hasOwn(contract.environment, name) ? contract.environment[name] : process.env[name]
    if (typeof value === 'string') {
      environment[name] = value
    }
  }
  return {
    root,
    workingDirectory: path.posix.isAbsolute(contract.working_directory)
      ? contract.working_directory
      : path.posix.resolve(root, contract.working_directory),
    environment,
  }
}

/** The rule that finds the values of `names` in the capture's context, and the names that resolved to a value. */
export interface MachineValueRule {
  readonly rule: PlaceholderRule | undefined
  readonly applied: PlaceholderName[]
}

export function machineValueRule(evidence: Evidence, names: readonly PlaceholderName[]): MachineValueRule {
  if (evidence.machine_values !== undefined) {
    // Already stored as tokens: no value of the capturing machine is left to find.
    return { rule: undefined, applied: [] }
  }
  const resolved = resolvePlaceholders(names, placeholderContextOf(evidence))
  const applied = resolved.resolutions.flatMap((entry) => (entry.status === 'applied' ? [entry.name] : []))
  return {
    rule: resolved.spellings.length === 0 ? undefined : new PlaceholderRule(resolved.spellings),
    applied,
  }
}

/** The placeholders a capture names in its contract, in their documented order. */
export function activePlaceholders(evidence: Evidence): PlaceholderName[] {
  const named = evidence.commitments.comparison_contract.value.normalization.placeholders ?? []
  return PLACEHOLDER_NAMES.filter((name) => named.includes(name))
}

/** The capture root as a stored document holds it when the root placeholder applied. */
export const STORED_ROOT = PLACEHOLDER_TOKENS.root
