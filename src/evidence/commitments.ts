import path from 'node:path'
import { pathInside, toPosix } from '../internal/path-inside.js'
import { canonicalDigest } from './canonical-json.js'
import { normalizationCommitment, type NormalizationCommitment } from '../normalize/normalize-chunk.js'
import { SENSITIVE_REDACTION_VERSION, sensitiveValues } from '../normalize/sensitive-values.js'
import type { ResolvedScenario } from '../scenario/resolve.js'
import type { ProcessScenario, ScenarioEvent } from '../scenario/schema.js'

/** How frame lines are formed: every visible row, trailing U+0020 removed, blank rows kept. */
export const LINE_FORMAT = 'visible-rows-trailing-spaces-trimmed-v1'
/** TERM given to the child unless the scenario's environment sets it. */
export const DEFAULT_TERMINAL_TYPE = 'xterm-256color'

/** A scenario event as committed: sensitive input keeps only its byte count. */
export type CommittedEvent =
  | Exclude<ScenarioEvent, { type: 'input' }>
  | { readonly type: 'input'; readonly at_ms: number; readonly sensitive: false; readonly data: string }
  | { readonly type: 'input'; readonly at_ms: number; readonly sensitive: true; readonly data_bytes: number }

export type CommittedScenario = Omit<ProcessScenario, 'events'> & { readonly events: CommittedEvent[] }

export interface ComparisonContract {
  /** Relative to the capture root with `/` separators; absolute only when outside the root. */
  readonly working_directory: string
  readonly environment: ProcessScenario['environment']
  readonly filesystem_observation_paths: string[]
  readonly terminal: ProcessScenario['terminal']
  readonly terminal_type: string
  readonly events: CommittedEvent[]
  readonly timeout_ms: number
  readonly idle_timeout_ms: number | null
  readonly settle_ms: number
  readonly finalization_ms: number
  readonly limits: ProcessScenario['limits']
  readonly normalization: NormalizationCommitment
  readonly line_format: string
}

export interface ExecutableCommitment {
  readonly executable: string
  readonly arguments: string[]
  /** Where the name resolved on this host; informational, as the executable may differ between sides. */
  readonly resolved_path: string
}

export interface Commitment<T> {
  /** Lowercase hex SHA-256 of the value's canonical JSON. */
  readonly sha256: string
  readonly value: T
}

export interface Commitments {
  readonly scenario: Commitment<CommittedScenario>
  readonly executable: Commitment<ExecutableCommitment>
  readonly comparison_contract: Commitment<ComparisonContract>
  readonly normalization: Commitment<NormalizationCommitment>
}

function commit<T>(value: T): Commitment<T> {
  return { sha256: canonicalDigest(value), value }
}

export function commitEvent(event: ScenarioEvent): CommittedEvent {
  if (event.type !== 'input') {
    return event
  }
  return event.sensitive
    ? { type: 'input', at_ms: event.at_ms, sensitive: true, data_bytes: Buffer.byteLength(event.data) }
    : { type: 'input', at_ms: event.at_ms, sensitive: false, data: event.data }
}

/**
 * The working directory as committed: portable across clones of the same repository. `paths` is the host's path
 * flavour; import passes the flavour of the capturing host, which may differ from its own.
 */
export function contractWorkingDirectory(
  root: string,
  workingDirectory: string,
  paths: path.PlatformPath = path,
): string {
  const relative = pathInside(root, workingDirectory, paths)
  return relative === null ? toPosix(workingDirectory, paths) : relative === '' ? '.' : relative
}

/**
 * Builds every commitment of a capture. Neither the inherited environment nor the run token appears in any of
 * them; the environment commitment holds only the scenario's explicit overrides.
 */
export function buildCommitments(resolved: ResolvedScenario): Commitments {
  const { scenario } = resolved
  const events = scenario.events.map(commitEvent)
  const normalization = normalizationCommitment(
    scenario.normalization,
    sensitiveValues(scenario).length > 0 ? SENSITIVE_REDACTION_VERSION : null,
  )
  return {
    scenario: commit({ ...scenario, events }),
    executable: commit({
      executable: scenario.executable,
      arguments: scenario.arguments,
      resolved_path: resolved.executablePath,
    }),
    comparison_contract: commit({
      working_directory: contractWorkingDirectory(resolved.root, resolved.workingDirectory),
      environment: scenario.environment,
      filesystem_observation_paths: scenario.filesystem_observation_paths,
      terminal: scenario.terminal,
      terminal_type: scenario.environment['TERM'] ?? DEFAULT_TERMINAL_TYPE,
      events,
      timeout_ms: scenario.timeout_ms,
      idle_timeout_ms: scenario.idle_timeout_ms,
      settle_ms: scenario.settle_ms,
      finalization_ms: scenario.finalization_ms,
      limits: scenario.limits,
      normalization,
      line_format: LINE_FORMAT,
    }),
    normalization: commit(normalization),
  }
}
