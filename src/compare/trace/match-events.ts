import type { Evidence } from '../../evidence/schema.js'
import type { Coverage } from './coverage.js'
import { describeObservation, type ObservedEvents, type Positioned } from './observations.js'
import type { TraceEventResult, TraceObservation, TraceUnknown, TraceViolation } from './result-schema.js'
import { traceEventKind, type TraceEvent, type TraceSpec } from './spec-schema.js'

/** Observations listed per event in a result; the count is always complete. */
export const MAX_LISTED_OBSERVATIONS = 20

export interface EventMatch {
  readonly event: TraceEvent
  /** Accepted occurrences in journal order; file effects have no position and are not listed here. */
  readonly occurrences: readonly Positioned[]
  readonly result: TraceEventResult
}

export interface Matching {
  readonly matches: readonly EventMatch[]
  readonly violations: TraceViolation[]
  readonly unknowns: TraceUnknown[]
}

type Accepted = { positioned: Positioned[]; plain: TraceObservation[]; mismatched: boolean }

/**
 * Assigns every observed event to the one spec event that accepts it (the validator guarantees at most one
 * candidate), reports the ones no event accepts, then decides each spec event's count. An excess is always a
 * violation; a shortfall is one only where the source was completely observed, and unknown otherwise.
 */
export function matchEvents(
  spec: TraceSpec,
  observed: ObservedEvents,
  coverage: Coverage,
  evidence: Evidence,
): Matching {
  const violations: TraceViolation[] = []
  const unknowns: TraceUnknown[] = []
  const accepted = new Map<TraceEvent, Accepted>(
    spec.events.map((event) => [event, { positioned: [], plain: [], mismatched: false }]),
  )
  const candidates = new Map<string, TraceEvent>(spec.events.map((event) => [candidateKey(event), event]))
  const consider = (key: string, observation: TraceObservation, positioned: Positioned | undefined) => {
    const event = candidates.get(key)
    const slot = event === undefined ? undefined : accepted.get(event)
    if (event === undefined || slot === undefined) {
      const detail = `${describeObservation(observation)} is not accepted by any event of the specification`
      violations.push({ kind: 'unmatched_observation', observation, detail })
    } else if (accepts(event, observation)) {
      slot.plain.push(observation)
      if (positioned !== undefined) {
        slot.positioned.push(positioned)
      }
    } else {
      slot.mismatched = true
      const detail = `expected ${expectation(event)}; observed ${describeObservation(observation)}`
      violations.push({ kind: 'mismatched_observation', event_id: event.id, observation, detail })
    }
  }
  for (const line of observed.lines) {
    consider(`line:${line.observation.text}`, line.observation, line)
  }
  // After a failed or cancelled capture these records describe REA ending the run, not the command.
  const endedEarly = coverage.exit?.reason === 'capture_ended_early'
  for (const interaction of endedEarly ? [] : observed.interactions) {
    consider(`interaction:${interaction.observation.event_index}`, interaction.observation, interaction)
  }
  if (observed.exit !== undefined && !endedEarly) {
    consider('exit', observed.exit.observation, observed.exit)
  }
  for (const file of observed.files) {
    consider(`file:${file.path}`, file, undefined)
  }
  if (evidence.filesystem.status === 'not_selected' && spec.events.some((event) => 'file' in event)) {
    unknowns.push({
      reason: 'filesystem_not_observed',
      detail:
        'the specification expects file effects, but the scenario selects no filesystem_observation_paths',
    })
  }
  const matches = spec.events.map((event): EventMatch => {
    const slot = accepted.get(event) ?? { positioned: [], plain: [], mismatched: false }
    const decided = decide(event, slot, coverage, evidence, observed)
    if (decided.violation !== undefined) {
      violations.push({ ...decided.violation, observations: slot.plain.slice(0, MAX_LISTED_OBSERVATIONS) })
    }
    if (decided.unknown !== undefined) {
      unknowns.push({ ...decided.unknown, event_id: event.id })
    }
    const result: TraceEventResult = {
      id: event.id,
      kind: traceEventKind(event),
      description: expectation(event),
      expected_count: 'line' in event ? event.count : 1,
      observed_count: slot.plain.length,
      status: decided.status,
      ...(decided.reason === undefined ? {} : { reason: decided.reason }),
      observations: slot.plain.slice(0, MAX_LISTED_OBSERVATIONS),
      observations_omitted: Math.max(0, slot.plain.length - MAX_LISTED_OBSERVATIONS),
    }
    return { event, occurrences: slot.positioned, result }
  })
  return { matches, violations, unknowns }
}

function candidateKey(event: TraceEvent): string {
  if ('line' in event) {
    return `line:${event.line}`
  }
  if ('interaction' in event) {
    return `interaction:${event.interaction.event_index}`
  }
  return 'exit' in event ? 'exit' : `file:${event.file.path}`
}

function accepts(event: TraceEvent, observation: TraceObservation): boolean {
  if ('interaction' in event && observation.kind === 'interaction') {
    const { type, outcome, skip_cause: cause } = event.interaction
    return (
      observation.outcome === outcome &&
      (type === undefined || observation.type === type) &&
      (cause === undefined || observation.skip_cause === cause)
    )
  }
  if ('exit' in event && observation.kind === 'exit') {
    const { reason, code, signal } = event.exit
    return (
      observation.reason === reason &&
      (code === undefined || observation.code === code) &&
      (signal === undefined || observation.signal === signal)
    )
  }
  if ('file' in event && observation.kind === 'file') {
    return observation.effect === event.file.effect
  }
  // Lines are looked up by their exact text, so the candidate always accepts.
  return 'line' in event && observation.kind === 'line'
}

/** The spec event in words, for messages. */
export function expectation(event: TraceEvent): string {
  if ('line' in event) {
    return `line ${JSON.stringify(event.line)}${event.count === 1 ? '' : ` ×${event.count}`}`
  }
  if ('interaction' in event) {
    const { event_index, type, outcome } = event.interaction
    return `scenario event ${event_index}${type === undefined ? '' : ` (${type})`} ${outcome}`
  }
  if ('exit' in event) {
    const { reason, code, signal } = event.exit
    return `exit ${reason}${code === undefined ? '' : ` code ${String(code)}`}${signal === undefined ? '' : ` signal ${signal}`}`
  }
  return `${event.file.path} ${event.file.effect}`
}

interface Decision {
  readonly status: TraceEventResult['status']
  readonly reason?: string
  readonly violation?: Omit<Extract<TraceViolation, { kind: 'count_mismatch' }>, 'observations'>
  readonly unknown?: TraceUnknown
}

function decide(
  event: TraceEvent,
  slot: Accepted,
  coverage: Coverage,
  evidence: Evidence,
  observed: ObservedEvents,
): Decision {
  const expected = 'line' in event ? event.count : 1
  const count = slot.plain.length
  const shortfall = (detail: string): Decision => ({
    status: 'mismatch',
    violation: {
      kind: 'count_mismatch',
      event_id: event.id,
      expected_count: expected,
      observed_count: count,
      detail,
    },
  })
  if (count > expected) {
    return shortfall(
      `${expectation(event)}: observed ${count} times, the specification accepts exactly ${expected}`,
    )
  }
  if ('line' in event && coverage.terminal !== undefined) {
    // Unseen output could hold more occurrences, or the missing ones.
    return { status: 'unknown', reason: coverage.terminal.reason }
  }
  if (count === expected) {
    return { status: 'matched' }
  }
  if (slot.mismatched) {
    // Already reported as a mismatched observation.
    return { status: 'mismatch' }
  }
  if ('line' in event) {
    return shortfall(
      `${expectation(event)}: observed ${count} of ${expected} times in complete terminal output`,
    )
  }
  if ('interaction' in event) {
    return coverage.interactions === undefined
      ? shortfall(
          `${expectation(event)}: the capture records no scenario event ${event.interaction.event_index} (its scenario has ${evidence.interactions.length})`,
        )
      : { status: 'unknown', reason: coverage.interactions.reason }
  }
  if ('exit' in event) {
    return { status: 'unknown', reason: coverage.exit?.reason ?? 'exit_not_observed' }
  }
  return decideFile(event, coverage, evidence, observed, shortfall)
}

function decideFile(
  event: Extract<TraceEvent, { file: unknown }>,
  coverage: Coverage,
  evidence: Evidence,
  observed: ObservedEvents,
  shortfall: (detail: string) => Decision,
): Decision {
  if (evidence.filesystem.status === 'not_selected') {
    return { status: 'unknown', reason: 'filesystem_not_observed' }
  }
  const { path } = event.file
  const alias = path.slice(0, path.indexOf(':'))
  const effect = observed.effectsByPath.get(path)
  const unknown = (reason: string, detail: string): Decision => ({
    status: 'unknown',
    reason,
    unknown: { reason, detail },
  })
  if (effect?.status === 'unknown') {
    return unknown('file_effect_unknown', `${path}: its effect could not be established (${effect.reason})`)
  }
  if (effect === undefined && !evidence.filesystem.roots.some((root) => root.alias === alias)) {
    return unknown('filesystem_root_not_observed', `${path}: the capture has no observation root ${alias}`)
  }
  if (effect === undefined && !coverage.rootComplete(alias)) {
    return unknown(
      'filesystem_incomplete',
      `${path}: no entry was seen, but ${alias} was not enumerated completely at both checkpoints`,
    )
  }
  const seen =
    effect === undefined
      ? 'absent at both checkpoints'
      : effect.status === 'unchanged'
        ? 'unchanged between the before_launch and after_settlement snapshots'
        : effect.status
  return shortfall(`${expectation(event)}: ${path} was ${seen}`)
}
