import type { EvidenceBody, ResidualUnknown } from './schema.js'

/** The parts of a document that residual unknowns and journal completeness follow from. */
export type AccountedBody = Omit<EvidenceBody, 'residual_unknowns' | 'journal'>

/**
 * Whether a filesystem checkpoint left something out. One definition for capture and import, so a document
 * whose flags disagree with its accounting is caught.
 */
export function filesystemAccountingCut(
  accounting: Pick<
    NonNullable<EvidenceBody['truncation_details']['filesystem_before']>,
    'roots' | 'hash_omissions' | 'enumeration_failures'
  >,
): boolean {
  return (
    accounting.roots.some((root) => !root.exhausted) ||
    accounting.hash_omissions.length > 0 ||
    accounting.enumeration_failures.length > 0
  )
}

/** Whether the selected filesystem observation lost anything: a cut checkpoint or a missing one. */
export function filesystemTruncated(body: AccountedBody): boolean {
  const details = body.truncation_details
  return (
    body.filesystem.status === 'observed' &&
    (details.filesystem_before?.truncated === true ||
      details.filesystem_after === null ||
      details.filesystem_after.truncated)
  )
}

/**
 * Why the event journal is incomplete, derived from the accounting: each source that dropped observations
 * gives one reason. The capture writes exactly these; import requires them.
 */
export function derivedIncompleteReasons(body: AccountedBody): string[] {
  const raw = body.truncation_details.raw_terminal
  const rendered = body.truncation_details.rendered_terminal
  return [
    ...(filesystemTruncated(body) ? ['a filesystem checkpoint is incomplete (see truncation_details)'] : []),
    ...(raw.omitted_chunks > 0 ? [`${raw.omitted_chunks} PTY chunks omitted by limits.output_bytes`] : []),
    ...(raw.drain === 'incomplete'
      ? ['terminal output after the last read may be missing (drain incomplete)']
      : []),
    ...(rendered.observed_frames > rendered.retained_frames
      ? [`${rendered.observed_frames - rendered.retained_frames} frames omitted`]
      : []),
    ...(body.exit.signal === null ? ['the root’s exit was not observed'] : []),
  ]
}

/**
 * The residual unknowns that follow from the rest of the document: drained or truncated terminal output, an
 * unobserved exit, missing or cut filesystem checkpoints, effects that could not be established, process
 * inspection that was unavailable (cleanup `unsupported`) and processes whose ownership could not be read.
 * The capture writes these; import requires every one of them.
 */
export function derivedResidualUnknowns(body: AccountedBody): ResidualUnknown[] {
  const details = body.truncation_details
  const unknowns: ResidualUnknown[] = []
  if (details.raw_terminal.drain === 'incomplete') {
    unknowns.push({
      dimension: 'terminal',
      reason: 'drain_incomplete',
      detail: 'the terminal closed before REA confirmed it had read everything the root wrote',
    })
  } else if (details.raw_terminal.truncated || details.rendered_terminal.truncated) {
    unknowns.push({
      dimension: 'terminal',
      reason: 'truncated',
      detail: 'a terminal budget dropped observations',
    })
  }
  if ((body.terminal.stream_normalization?.limit_releases ?? 0) > 0) {
    unknowns.push({
      dimension: 'terminal',
      reason: 'normalization_hold_limit',
      detail:
        'undecided output reached the stream rules’ hold limit and was released as it stood: a placeholder, redaction or filter may have missed a match across the cut',
    })
  }
  if (body.exit.signal === null) {
    unknowns.push({
      dimension: 'exit',
      reason: 'exit_not_observed',
      detail: 'the PTY never reported the root’s exit',
    })
  }
  const observed = body.filesystem.status === 'observed'
  if (observed && details.filesystem_after === null) {
    unknowns.push({
      dimension: 'filesystem',
      reason: 'after_checkpoint_missing',
      detail: 'the after_settlement checkpoint was not taken',
    })
  }
  // Entries a cut enumeration never listed have no effect entry at all, so the cut itself is the unknown.
  for (const [checkpoint, accounting] of [
    ['before_launch', details.filesystem_before],
    ['after_settlement', details.filesystem_after],
  ] as const) {
    for (const root of observed ? (accounting?.roots ?? []) : []) {
      if (!root.exhausted) {
        unknowns.push({
          dimension: 'filesystem',
          reason: 'enumeration_incomplete',
          detail: `${root.alias} was not enumerated completely at ${checkpoint}; entries it did not list may have changed`,
        })
      }
    }
  }
  const unknownEffects = new Map<string, number>()
  for (const effect of body.filesystem.effects) {
    if (effect.status === 'unknown') {
      unknownEffects.set(effect.reason, (unknownEffects.get(effect.reason) ?? 0) + 1)
    }
  }
  for (const [reason, count] of unknownEffects) {
    unknowns.push({
      dimension: 'filesystem',
      reason,
      detail: `${count} ${count === 1 ? 'entry' : 'entries'} whose effect could not be established (${reason})`,
    })
  }
  if (body.cleanup.owned_processes === 'unsupported') {
    unknowns.push({
      dimension: 'process',
      reason: 'process_inspection_unavailable',
      detail: `REA cannot inspect processes on ${body.host.platform}: the process tree was not observed`,
    })
  }
  for (const unverified of body.cleanup.unverified_processes) {
    unknowns.push({
      dimension: 'process',
      reason: unverified.related ? 'related_process_unverified' : 'unrelated_process_unverified',
      detail: `pid ${unverified.pid} started during the capture; ${unverified.reason}`,
    })
  }
  return unknowns
}
