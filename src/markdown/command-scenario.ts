import { FILTER_TOKENS, type FilterName } from '../normalize/filters.js'
import { PLACEHOLDER_TOKENS, type PlaceholderName } from '../normalize/placeholders.js'
import type { ProcessScenarioInput } from '../scenario/schema.js'
import { TEST_DEFAULT_PLACEHOLDERS } from '../scenario/test-defaults.js'
import { DEFAULT_COMMAND_TIMEOUT_MS, type CaseOptions } from './case-options.js'
import type { CommandPlan } from './plan-document.js'

/**
 * The scenario one `$` line runs: `sh -c` with the command as written, in the block's folder, with its options.
 * A token in the expected text turns its rule on (`[DURATION]` the durations filter, `[USER]` the user
 * placeholder), so a block says what it expects once. The test environment is added by whoever runs it, as for
 * every test capture.
 */
export function commandScenario(
  command: CommandPlan,
  options: CaseOptions,
  directory: string,
): ProcessScenarioInput {
  const tokens = new Set<string>()
  for (const line of command.parsed.expected) {
    if (line.kind === 'line') {
      for (const segment of line.segments) {
        if (segment.kind === 'token') {
          tokens.add(segment.text)
        }
      }
    }
  }
  const placeholders = new Set<PlaceholderName>(options.placeholders ?? TEST_DEFAULT_PLACEHOLDERS)
  for (const [name, token] of Object.entries(PLACEHOLDER_TOKENS) as [PlaceholderName, string][]) {
    if (tokens.has(token)) {
      placeholders.add(name)
    }
  }
  const filters = new Set<FilterName>(options.filters ?? [])
  // A token two filters write turns on the first (`[DURATION]`: durations, which takes what measured_durations does).
  const named = new Set<string>()
  for (const [name, token] of Object.entries(FILTER_TOKENS) as [FilterName, string][]) {
    if (tokens.has(token) && !named.has(token)) {
      filters.add(name)
      named.add(token)
    }
  }
  const redactions = Object.entries(options.redactions ?? {}).map(([name, regex]) => ({
    regex,
    replacement: `[${name}]`,
  }))
  return {
    executable: 'sh',
    arguments: ['-c', command.parsed.command],
    working_directory: directory,
    environment: { ...options.environment },
    terminal: {
      ...(options.columns === undefined ? {} : { columns: options.columns }),
      ...(options.rows === undefined ? {} : { rows: options.rows }),
      ...(options.scrollback === undefined ? {} : { scrollback: options.scrollback }),
    },
    events: [...command.inputs.events],
    timeout_ms: options.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    normalization: {
      // The order of the table in docs/normalization.md, as the contract commits them.
      placeholders: [...placeholders],
      ...(filters.size === 0 ? {} : { filters: [...filters] }),
      ...(redactions.length === 0 ? {} : { redactions }),
      ...(options.ports === undefined ? {} : { ports: options.ports }),
    },
  }
}
