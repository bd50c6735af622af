import { canonicalDigest, canonicalJson } from '../../src/evidence/canonical-json.js'
import {
  derivedIncompleteReasons,
  derivedResidualUnknowns,
  type AccountedBody,
} from '../../src/evidence/derived-unknowns.js'
import { classifyEffects } from '../../src/evidence/file-effects.js'
import { EVIDENCE_FORMAT_VERSION } from '../../src/evidence/format.js'
import { sealEvidence } from '../../src/evidence/identity-digest.js'
import { parseEvidence } from '../../src/evidence/load.js'
import type {
  Evidence,
  EvidenceBody,
  FileEffect,
  FileEntry,
  ResidualUnknown,
} from '../../src/evidence/schema.js'

/** One journal entry, in order; sequence numbers are assigned from the position in the list. */
export type JournalItem =
  | { readonly chunk: string }
  | { readonly omitted: { readonly count: number; readonly bytes: number } }
  | {
      readonly interaction: {
        readonly event_index: number
        readonly type?: 'input' | 'resize' | 'signal'
        readonly outcome?: 'dispatched' | 'skipped' | 'failed'
        readonly reason?: string
      }
    }
  | {
      readonly exit: {
        readonly code: number | null
        readonly signal: number | null
        readonly reason?: EvidenceBody['exit']['reason']
      }
    }
  | { readonly frame: 'retained' | 'omitted' }

export interface BuildOptions {
  readonly drain?: 'complete' | 'incomplete'
  /**
   * Selects one observation root, root_0, with these effects; the checkpoints are made from their before and
   * after entries. An effect unknown for a cut enumeration cuts that checkpoint's root.
   */
  readonly effects?: readonly FileEffect[]
  /** Whether root_0 was enumerated completely at the after_settlement checkpoint (default true). */
  readonly rootExhausted?: boolean
  /** Residual unknowns beyond the ones the accounting implies (those are always added). */
  readonly residualUnknowns?: readonly ResidualUnknown[]
  /** Extra incomplete reasons beyond the ones derived from the items, e.g. for a cause REA adds later. */
  readonly extraIncompleteReasons?: readonly string[]
}

const LIMITS = {
  output_bytes: 1_048_576,
  rendered_bytes: 4_194_304,
  file_bytes: 67_108_864,
  file_count: 10_000,
  filesystem_depth: 32,
  process_samples: 1000,
}
const NORMALIZATION = {
  ports: true,
  port_normalization_version: null,
  patterns: [],
  pattern_normalization_version: null,
  sensitive_redaction_version: null,
}

/**
 * Evidence as a capture would produce it, from a list of journal entries. `at_ms` runs backwards on purpose:
 * the trace checker must never read it. An exit (code 0) is appended when the list has none, and the result
 * passes the same import validation as a saved capture.
 */
export function buildEvidence(items: readonly JournalItem[], options: BuildOptions = {}): Evidence {
  const all: JournalItem[] = items.some((item) => 'exit' in item)
    ? [...items]
    : [...items, { exit: { code: 0, signal: 0 } }]
  const selected = options.effects !== undefined
  let sequence = 0
  const next = () => {
    const position = { sequence, at_ms: 10_000 - sequence * 10 }
    sequence++
    return position
  }
  const checkpoints: EvidenceBody['filesystem']['checkpoints'] = []
  if (selected) {
    checkpoints.push({ ...next(), name: 'before_launch' })
  }
  const chunks: EvidenceBody['terminal']['chunks'] = []
  const omitted: EvidenceBody['terminal']['omitted_chunks'] = []
  const frames: EvidenceBody['terminal']['frames'] = []
  const interactions: EvidenceBody['interactions'] = []
  let exit: EvidenceBody['exit'] | undefined
  for (const item of all) {
    const position = next()
    if ('chunk' in item) {
      chunks.push({ ...position, data: item.chunk, byte_length: Buffer.byteLength(item.chunk) })
    } else if ('omitted' in item) {
      omitted.push({ ...position, last_at_ms: position.at_ms, ...item.omitted })
    } else if ('interaction' in item) {
      const { event_index, type = 'input', outcome = 'dispatched', reason } = item.interaction
      const delivery =
        type !== 'signal' || outcome === 'skipped' ? {} : { delivery: SIGNAL_DELIVERY[outcome] }
      const because = reason === undefined ? {} : { reason }
      // A wait that ran out needs its event to wait and its wait to be unmet, as a capture records it.
      const wait = reason === 'wait_timed_out' ? { wait: { met_at_ms: null } } : {}
      interactions.push({
        ...position,
        event_index,
        type,
        scheduled_at_ms: 0,
        outcome,
        ...delivery,
        ...because,
        ...wait,
      })
    } else if ('exit' in item) {
      exit = { ...position, reason: 'exited', ...item.exit }
    } else {
      const base = { ...position, trigger: 'final', checkpoint: true, event_index: null } as const
      frames.push(
        item.frame === 'retained'
          ? {
              ...base,
              status: 'retained',
              columns: 80,
              rows: 24,
              cursor: { row: 0, column: 0 },
              lines: Array.from({ length: 24 }, () => ''),
              serialized_state: '',
            }
          : { ...base, status: 'omitted', reason: 'rendered_bytes_budget' },
      )
    }
  }
  if (selected) {
    checkpoints.push({ ...next(), name: 'after_settlement' })
  }
  if (exit === undefined) {
    throw new Error('unreachable: an exit is always present')
  }
  const drain = options.drain ?? 'complete'
  const omittedCount = omitted.reduce((total, run) => total + run.count, 0)
  const omittedBytes = omitted.reduce((total, run) => total + run.bytes, 0)
  const retainedBytes = chunks.reduce((total, chunk) => total + chunk.byte_length, 0)
  const framesOmitted = frames.filter((frame) => frame.status === 'omitted').length
  const exhausted = options.rootExhausted ?? true
  const effects = options.effects ?? []
  const filesBefore: Record<string, FileEntry> = {}
  const filesAfter: Record<string, FileEntry> = {}
  for (const fileEffect of effects) {
    if (fileEffect.before !== null) {
      filesBefore[fileEffect.path] = fileEffect.before
    }
    if (fileEffect.after !== null) {
      filesAfter[fileEffect.path] = fileEffect.after
    }
  }
  const cut = (reason: string) => effects.some((e) => e.status === 'unknown' && e.reason === reason)
  const accounting = (files: Record<string, FileEntry>, rootExhausted: boolean) => {
    const omissions = Object.entries(files).flatMap(([path, entry]) =>
      entry.type === 'file' && entry.sha256 === null
        ? [
            {
              path,
              size: entry.size,
              remaining_budget: LIMITS.file_bytes,
              reason: 'file_unavailable' as const,
              system_code: 'EACCES',
            },
          ]
        : [],
    )
    return {
      file_count_limit: LIMITS.file_count,
      depth_limit: LIMITS.filesystem_depth,
      entries_retained: Object.keys(files).length,
      count_limit_reached: !rootExhausted,
      depth_limited: [],
      incomplete_directories: [],
      enumeration_failures: [],
      file_bytes_budget: LIMITS.file_bytes,
      bytes_hashed: Object.values(files).reduce(
        (sum, entry) => sum + (entry.type === 'file' && entry.sha256 !== null ? entry.size : 0),
        0,
      ),
      hash_omissions: omissions,
      roots: [{ alias: 'root_0', exhausted: rootExhausted }],
      truncated: !rootExhausted || omissions.length > 0,
    }
  }
  const accountingBefore = accounting(filesBefore, !cut('before_enumeration_incomplete'))
  const accountingAfter = accounting(filesAfter, exhausted && !cut('after_enumeration_incomplete'))
  const recomputed = classifyEffects(
    { entries: filesBefore, accounting: accountingBefore },
    { entries: filesAfter, accounting: accountingAfter },
  )
  if (selected && canonicalJson(recomputed) !== canonicalJson([...effects].sort(byPath))) {
    throw new Error(`the effects do not follow from their entries: ${canonicalJson(recomputed)}`)
  }
  const events: EvidenceBody['commitments']['comparison_contract']['value']['events'] = []
  for (const interaction of interactions) {
    while (events.length <= interaction.event_index) {
      events.push({ type: 'input', at_ms: 0, sensitive: false, data: 'x' })
    }
    events[interaction.event_index] =
      interaction.type === 'resize'
        ? { type: 'resize', at_ms: 0, columns: 80, rows: 24 }
        : interaction.type === 'signal'
          ? { type: 'signal', at_ms: 0, signal: 'SIGINT' }
          : { type: 'input', at_ms: 0, sensitive: false, data: 'x' }
    if (interaction.wait !== undefined) {
      events[interaction.event_index] = {
        ...events[interaction.event_index]!,
        after: { screen: 'x', within_ms: 100 },
      }
    }
  }
  const observationPaths = selected ? ['./out'] : []
  const contract = {
    working_directory: '.',
    environment: {},
    filesystem_observation_paths: observationPaths,
    terminal: { columns: 80, rows: 24, scrollback: 1000 },
    terminal_type: 'xterm-256color',
    events,
    timeout_ms: 30_000,
    idle_timeout_ms: null,
    settle_ms: 100,
    finalization_ms: 0,
    limits: LIMITS,
    normalization: NORMALIZATION,
    line_format: 'visible-rows-trailing-spaces-trimmed-v1',
  }
  const accounted: AccountedBody = {
    format: 'rea.process-capture.evidence',
    format_version: EVIDENCE_FORMAT_VERSION,
    rea_version: '0.1.0',
    captured_at: '2026-01-01T00:00:00.000Z',
    host: {
      platform: 'linux',
      arch: 'x64',
      node_version: 'v20.0.0',
      capture_root: '/repo',
      pty_backend: 'native',
    },
    commitments: {
      scenario: committed({
        executable: 'program',
        arguments: [],
        working_directory: '.',
        environment: {},
        filesystem_observation_paths: observationPaths,
        terminal: contract.terminal,
        events,
        timeout_ms: 30_000,
        idle_timeout_ms: null,
        settle_ms: 100,
        finalization_ms: 0,
        limits: LIMITS,
        normalization: { patterns: [], ports: true },
      }),
      executable: committed({ executable: 'program', arguments: [], resolved_path: '/usr/bin/program' }),
      comparison_contract: committed(contract),
      normalization: committed(NORMALIZATION),
    },
    disposition: exit.reason,
    ...(exit.reason === 'failed' ? { failure: 'Error: built to fail' } : {}),
    duration_ms: 100,
    terminal: { chunks, omitted_chunks: omitted, frames, redaction: null },
    interactions,
    exit,
    process: { root: null, samples: [], coverage: 'sampled' },
    settlement: { status: 'quiesced', elapsed_ms: 0 },
    cleanup: {
      owned_processes: 'not_needed',
      killed: [],
      unverified_processes: [],
      renderer: 'disposed',
      temporary_root: 'not_created',
      elapsed_ms: 0,
    },
    normalized_result: {
      files_before: selected ? filesBefore : null,
      files_after: selected ? filesAfter : null,
    },
    filesystem: selected
      ? {
          status: 'observed',
          roots: [{ alias: 'root_0', path: './out', before: 'directory', after: 'directory' }],
          checkpoints,
          effects: recomputed,
        }
      : { status: 'not_selected', roots: [], checkpoints: [], effects: [] },
    truncation_details: {
      raw_terminal: {
        budget_bytes: LIMITS.output_bytes,
        observed_bytes: retainedBytes + omittedBytes,
        retained_bytes: retainedBytes,
        observed_chunks: chunks.length + omittedCount,
        retained_chunks: chunks.length,
        omitted_chunks: omittedCount,
        omitted_bytes: omittedBytes,
        drain,
        truncated: omittedCount > 0 || drain === 'incomplete',
      },
      rendered_terminal: {
        budget_bytes: LIMITS.rendered_bytes,
        retained_bytes: 0,
        observed_frames: frames.length,
        retained_frames: frames.length - framesOmitted,
        omitted_for_budget: framesOmitted,
        omitted_for_raw_gap: 0,
        truncated: framesOmitted > 0,
      },
      filesystem_before: selected ? accountingBefore : null,
      filesystem_after: selected ? accountingAfter : null,
      process: {
        sample_limit: 1000,
        samples_retained: 0,
        limit_reached: false,
        partial: false,
        coverage: 'sampled',
      },
    },
    truncated:
      omittedCount > 0 ||
      drain === 'incomplete' ||
      framesOmitted > 0 ||
      (selected && (accountingBefore.truncated || accountingAfter.truncated)),
  }
  const derived = derivedResidualUnknowns(accounted)
  const isDerived = (unknown: ResidualUnknown) =>
    derived.some((known) => known.dimension === unknown.dimension && known.reason === unknown.reason)
  const incompleteReasons = [
    ...derivedIncompleteReasons(accounted),
    ...(options.extraIncompleteReasons ?? []),
  ]
  const body: EvidenceBody = {
    ...accounted,
    residual_unknowns: [
      ...derived,
      ...(options.residualUnknowns ?? []).filter((unknown) => !isDerived(unknown)),
    ],
    journal: {
      complete: incompleteReasons.length === 0,
      next_sequence: sequence,
      incomplete_reasons: incompleteReasons,
    },
  }
  // The same checks as importing a saved capture, so the builder cannot drift from the real format.
  return parseEvidence(JSON.parse(JSON.stringify(sealEvidence(body))), 'built Evidence')
}

const SIGNAL_DELIVERY = { dispatched: 'signaled', failed: 'unverified' } as const

const byPath = (a: FileEffect, b: FileEffect): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)

/** A file effect as classifyEffects writes it. */
export function effect(path: string, status: 'created' | 'deleted' | 'unchanged'): FileEffect {
  const entry = { type: 'file', size: 1, sha256: 'a'.repeat(64), mode: '0644' } as const
  return {
    path,
    status,
    before: status === 'created' ? null : entry,
    after: status === 'deleted' ? null : entry,
  }
}

/** A commitment as captures make it: the digest of the value's canonical JSON. */
function committed<T>(value: T): { sha256: string; value: T } {
  return { sha256: canonicalDigest(value), value }
}

/** Evidence whose committed command line is `words` (not sealed again: for what reads only the commitment). */
export function withCommand(evidence: Evidence, [executable, ...args]: readonly string[]): Evidence {
  const commitment = evidence.commitments.executable
  return {
    ...evidence,
    commitments: {
      ...evidence.commitments,
      executable: { ...commitment, value: { ...commitment.value, executable: executable!, arguments: args } },
    },
  }
}
