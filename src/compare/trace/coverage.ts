import type { Evidence } from '../../evidence/schema.js'
import { enumerationGaps } from '../unknowns/enumeration-gaps.js'
import { unattributedJournalGaps } from '../unknowns/journal-gaps.js'
import type { TraceUnknown } from './result-schema.js'

/**
 * What the capture could not fully observe, per source a trace reads. Every source is relevant to every
 * spec, because an observed event the spec does not list is a violation: a gap in the terminal output could
 * hide an unlisted line even when the spec lists no lines. Rendered frames and process samples are not trace
 * sources, so their omissions do not matter here.
 */
export interface Coverage {
  readonly terminal: TraceUnknown | undefined
  readonly interactions: TraceUnknown | undefined
  readonly exit: TraceUnknown | undefined
  /** Source-level reasons, each reported once in the result. */
  readonly unknowns: readonly TraceUnknown[]
  /** Whether a missing effect under this root alias proves absence. */
  readonly rootComplete: (alias: string) => boolean
}

export function assessCoverage(evidence: Evidence): Coverage {
  const raw = evidence.truncation_details.raw_terminal
  const omitted = evidence.terminal.omitted_chunks
  const terminalReasons: TraceUnknown[] = []
  if (omitted.length > 0 || raw.omitted_chunks > 0) {
    const where = omitted.map((run) => run.sequence).join(', ')
    terminalReasons.push({
      reason: 'terminal_output_omitted',
      detail: `${raw.omitted_chunks} PTY ${raw.omitted_chunks === 1 ? 'chunk' : 'chunks'} (${raw.omitted_bytes} bytes) ${raw.omitted_chunks === 1 ? 'was' : 'were'} left out by limits.output_bytes${where === '' ? '' : ` at sequence ${where}`}; the omitted output may hold lines the specification does not list, or lines it expects`,
    })
  }
  if (raw.drain === 'incomplete') {
    terminalReasons.push({
      reason: 'terminal_drain_incomplete',
      detail:
        'REA did not confirm it read everything the command wrote before it exited; later lines may be missing',
    })
  }
  // A failed or cancelled capture ended the run itself: its exit and the fate of later events are REA's doing.
  const endedEarly: TraceUnknown[] =
    evidence.disposition === 'failed' || evidence.disposition === 'cancelled'
      ? [
          {
            reason: 'capture_ended_early',
            detail: `the capture was ${evidence.disposition} before the command finished on its own; its exit and later interactions are not the command’s`,
          },
        ]
      : []
  const exitReasons: TraceUnknown[] =
    endedEarly.length > 0
      ? endedEarly
      : evidence.exit.signal === null
        ? [
            {
              reason: 'exit_not_observed',
              detail: `the command’s exit was not observed (exit.reason ${evidence.exit.reason})`,
            },
          ]
        : []
  const interactionReasons: TraceUnknown[] = [
    ...endedEarly,
    ...evidence.residual_unknowns
      .filter((unknown) => unknown.dimension === 'interaction')
      .map((unknown) => ({ reason: 'interaction_unknown', detail: `${unknown.reason}: ${unknown.detail}` })),
  ]
  const filesystemReasons = filesystemUnknowns(evidence)
  const journalReasons = unexplainedJournalGap(evidence)
  const first = (reasons: readonly TraceUnknown[]) => reasons[0] ?? journalReasons[0]
  const before = evidence.truncation_details.filesystem_before
  const after = evidence.truncation_details.filesystem_after
  return {
    terminal: first(terminalReasons),
    interactions: first(interactionReasons),
    exit: first(exitReasons),
    unknowns: [
      ...journalReasons,
      ...terminalReasons,
      ...interactionReasons,
      ...exitReasons.filter((reason) => !endedEarly.includes(reason)),
      ...filesystemReasons,
    ],
    rootComplete: (alias) =>
      journalReasons.length === 0 &&
      after !== null &&
      [before, after].every(
        (accounting) => accounting?.roots.find((root) => root.alias === alias)?.exhausted === true,
      ),
  }
}

/** Unlisted effects could exist unseen: a cut enumeration, a missing checkpoint, effects that are unknown. */
function filesystemUnknowns(evidence: Evidence): TraceUnknown[] {
  if (evidence.filesystem.status === 'not_selected') {
    return []
  }
  const reasons: TraceUnknown[] = [
    ...enumerationGaps(evidence).map((gap) => ({
      reason: 'filesystem_incomplete',
      detail: `${gap.reason}: ${gap.detail}`,
    })),
    // Cut enumerations come from the accounting just above; the other residual unknowns say what else is open.
    ...evidence.residual_unknowns
      .filter((unknown) => unknown.dimension === 'filesystem' && unknown.reason !== 'enumeration_incomplete')
      .map((unknown) => ({
        reason: 'filesystem_incomplete',
        detail: `${unknown.reason}: ${unknown.detail}`,
      })),
  ]
  const unknownEffects = evidence.filesystem.effects.filter((effect) => effect.status === 'unknown')
  // The Evidence lists these as residual unknowns; this guards a document that does not.
  if (reasons.length === 0 && unknownEffects.length > 0) {
    reasons.push({
      reason: 'filesystem_incomplete',
      detail: `${unknownEffects.length} entries have an unknown effect, e.g. ${unknownEffects[0]?.path ?? ''}`,
    })
  }
  if (reasons.length === 0 && evidence.truncation_details.filesystem_after === null) {
    reasons.push({ reason: 'filesystem_incomplete', detail: 'the after_settlement checkpoint was not taken' })
  }
  return reasons
}

/**
 * A journal gap REA derives from one source is read from that source's own fields above; a reason beyond those
 * is a cause this module cannot place, so it affects every source.
 */
function unexplainedJournalGap(evidence: Evidence): TraceUnknown[] {
  const gaps = unattributedJournalGaps(evidence)
  return gaps.length === 0
    ? []
    : [
        {
          reason: 'journal_incomplete',
          detail: `the event journal is incomplete for a reason this REA does not attribute to a source (${gaps.join('; ')})`,
        },
      ]
}
