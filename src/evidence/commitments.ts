import path from 'node:path'
import { pathInside, toPosix } from '../internal/path-inside.js'
import { canonicalDigest } from './canonical-json.js'
import {
  committedNormalizationSettings,
  normalizationCommitment,
  type NormalizationCommitment,
} from '../normalize/normalize-chunk.js'
import { SENSITIVE_REDACTION_VERSION, sensitiveValues } from '../normalize/sensitive-values.js'
import type { ResolvedScenario } from '../scenario/resolve.js'
import type { ProcessScenario, ScenarioEvent } from '../scenario/schema.js'
import type { EvidenceBody } from './schema.js'
import { REPLY_TABLE, WIDTH_MODEL } from '../scenario/terminal-model.js'
import { EVENT_DISPATCH, type EventDispatchModel } from '../scenario/event-dispatch.js'

/** How frame lines are formed: every visible row, trailing U+0020 removed, blank rows kept. */
export const LINE_FORMAT = 'visible-rows-trailing-spaces-trimmed-v1'

type CommittedValues = EvidenceBody['commitments']
/** A scenario event as committed: sensitive input keeps only its byte or key count. */
export type CommittedEvent = CommittedValues['comparison_contract']['value']['events'][number]
export type CommittedScenario = CommittedValues['scenario']['value']
export type CommittedTerminal = CommittedScenario['terminal']
export type ComparisonContract = CommittedValues['comparison_contract']['value']

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
  // Timing fields only when given: an event without after commits what it always did.
  const timing = {
    ...(event.at_ms === undefined ? {} : { at_ms: event.at_ms }),
    ...(event.after === undefined ? {} : { after: event.after }),
  }
  switch (event.type) {
    case 'resize':
      return { type: 'resize', ...timing, columns: event.columns, rows: event.rows }
    case 'signal':
      return { type: 'signal', ...timing, signal: event.signal }
    case 'input':
      if (event.keys !== undefined) {
        return event.sensitive
          ? { type: 'input', ...timing, sensitive: true, key_count: event.keys.length }
          : { type: 'input', ...timing, sensitive: false, keys: event.keys }
      }
      return event.sensitive
        ? { type: 'input', ...timing, sensitive: true, data_bytes: Buffer.byteLength(event.data ?? '') }
        : { type: 'input', ...timing, sensitive: false, data: event.data ?? '' }
  }
}

/**
 * The terminal as committed: `answer_queries` only when on (captures before it answered nothing), with the reply
 * table it answered from; the width model unless it is the legacy one, which captures made before REA named its
 * width model used (so a scenario that asks for it commits what those captures did).
 */
export function commitTerminal(terminal: ProcessScenario['terminal']): CommittedTerminal {
  const { columns, rows, scrollback } = terminal
  return {
    columns,
    rows,
    scrollback,
    ...(terminal.answer_queries ? { answer_queries: true, reply_table: REPLY_TABLE } : {}),
    ...(terminal.width_model === WIDTH_MODEL ? { width_model: WIDTH_MODEL } : {}),
  }
}

/**
 * The dispatch model as committed: named when it decides anything in the scenario (when input goes in, after the
 * terminal's exchange and keys one at a time, and when a wait is met, settled); absent under the legacy model,
 * as in every capture made before it was named, and in a scenario that types nothing and waits for nothing,
 * which commits what it always did.
 */
function commitDispatch(
  dispatch: EventDispatchModel,
  events: readonly ScenarioEvent[],
): { event_dispatch?: typeof EVENT_DISPATCH } {
  const matters = events.some((event) => event.type === 'input' || event.after !== undefined)
  return dispatch === EVENT_DISPATCH && matters ? { event_dispatch: EVENT_DISPATCH } : {}
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
  const { event_dispatch: dispatch, ...undispatched } = scenario
  const events = scenario.events.map(commitEvent)
  const committedDispatch = commitDispatch(dispatch, scenario.events)
  const normalization = normalizationCommitment(
    scenario.normalization,
    sensitiveValues(scenario).length > 0 ? SENSITIVE_REDACTION_VERSION : null,
  )
  return {
    scenario: commit({
      ...undispatched,
      terminal: commitTerminal(scenario.terminal),
      events,
      normalization: committedNormalizationSettings(scenario.normalization),
      ...committedDispatch,
    }),
    executable: commit({
      executable: scenario.executable,
      arguments: scenario.arguments,
      resolved_path: resolved.executablePath,
    }),
    comparison_contract: commit({
      working_directory: contractWorkingDirectory(resolved.root, resolved.workingDirectory),
      environment: scenario.environment,
      // Present only when asked for: contracts of captures without it stay what they were.
      ...(scenario.home === undefined ? {} : { home: scenario.home }),
      filesystem_observation_paths: scenario.filesystem_observation_paths,
      terminal: commitTerminal(scenario.terminal),
      terminal_type: resolved.terminalType,
      events,
      timeout_ms: scenario.timeout_ms,
      idle_timeout_ms: scenario.idle_timeout_ms,
      settle_ms: scenario.settle_ms,
      finalization_ms: scenario.finalization_ms,
      limits: scenario.limits,
      normalization,
      line_format: LINE_FORMAT,
      ...committedDispatch,
    }),
    normalization: commit(normalization),
  }
}
