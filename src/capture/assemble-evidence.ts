import { EVIDENCE_FORMAT, EVIDENCE_FORMAT_VERSION } from '../evidence/format.js'
import { sealEvidence } from '../evidence/identity-digest.js'
import { rootAlias } from '../filesystem/aliases.js'
import type { FilesystemSnapshot } from '../filesystem/snapshot.js'
import type {
  Evidence,
  EvidenceBody,
  ExitRecord,
  FileEffect,
  FilesystemCheckpoint,
  Interaction,
  ProcessSample,
  ResidualUnknown,
} from '../evidence/schema.js'
import type { ProcessAccounting } from '../process/sampler.js'
import type { RootBinding } from '../process/bind-root.js'
import type { OwnedCleanupResult } from '../process/cleanup.js'
import type { Settlement } from '../process/settle.js'
import type { Commitments } from '../scenario/commitment.js'
import type { ResolvedScenario } from '../scenario/resolve.js'
import type { ProcessScenario } from '../scenario/schema.js'
import type { FrameRecorder } from '../terminal/frame-recorder.js'
import type { OutputRecorder } from '../terminal/output-recorder.js'
import type { DrainOutcome } from '../terminal/pty-backend.js'
import {
  MAX_REDACTION_LOCATIONS,
  SENSITIVE_REDACTION_VERSION,
  type SensitiveRedactor,
} from '../terminal/redact.js'
import { REA_VERSION } from '../version.js'
import type { CaptureDisposition, CleanupStates } from './progress.js'

export interface FilesystemObservation {
  readonly before: FilesystemSnapshot
  /** Undefined when the after_settlement checkpoint could not be taken. */
  readonly after: FilesystemSnapshot | undefined
  readonly checkpoints: FilesystemCheckpoint[]
  readonly effects: FileEffect[]
}

export interface CaptureObservations {
  readonly scenario: ProcessScenario
  readonly resolved: ResolvedScenario
  readonly commitments: Commitments
  readonly capturedAt: string
  readonly durationMs: number
  readonly disposition: CaptureDisposition
  readonly failure: string | undefined
  readonly recorder: OutputRecorder
  readonly frames: FrameRecorder
  readonly redactor: SensitiveRedactor
  readonly interactions: Interaction[]
  readonly filesystem: FilesystemObservation | undefined
  readonly samples: ProcessSample[]
  /** Undefined where REA cannot inspect processes. */
  readonly processAccounting: ProcessAccounting | undefined
  readonly drain: DrainOutcome
  readonly exit: ExitRecord
  readonly root: { readonly pid: number; readonly binding: RootBinding | undefined } | null
  readonly settlement: Settlement
  readonly owned: OwnedCleanupResult
  readonly cleanupStates: CleanupStates
  readonly cleanupElapsedMs: number
  readonly nextSequence: number
}

/**
 * Turns what a run observed into the Evidence document: accounting per source, residual unknowns for
 * whatever was not fully observed, journal completeness, and the identity digest.
 */
export function assembleEvidence(observed: CaptureObservations): Evidence {
  const raw = observed.recorder.accounting
  const rendered = observed.frames.accounting
  const rawTruncated = raw.omitted_chunks > 0 || observed.drain === 'incomplete'
  const renderedTruncated = rendered.omitted_for_budget > 0 || rendered.omitted_for_raw_gap > 0
  const unknowns = residualUnknowns(observed, rawTruncated, renderedTruncated)
  const files = observed.filesystem
  const filesystemTruncated =
    files !== undefined &&
    (isTruncated(files.before) || files.after === undefined || isTruncated(files.after))
  const incompleteReasons = [
    ...(filesystemTruncated ? ['a filesystem checkpoint is incomplete (see truncation_details)'] : []),
    ...(raw.omitted_chunks > 0 ? [`${raw.omitted_chunks} PTY chunks omitted by limits.output_bytes`] : []),
    ...(observed.drain === 'incomplete'
      ? ['terminal output after the last read may be missing (drain incomplete)']
      : []),
    ...(rendered.observed_frames > rendered.retained_frames
      ? [`${rendered.observed_frames - rendered.retained_frames} frames omitted`]
      : []),
    ...(observed.exit.signal === null ? ['the root’s exit was not observed'] : []),
  ]
  const body: EvidenceBody = {
    format: EVIDENCE_FORMAT,
    format_version: EVIDENCE_FORMAT_VERSION,
    rea_version: REA_VERSION,
    captured_at: observed.capturedAt,
    host: {
      platform: process.platform,
      arch: process.arch,
      node_version: process.version,
      capture_root: observed.resolved.root,
      pty_backend: 'node-pty',
    },
    commitments: observed.commitments,
    disposition: observed.disposition,
    ...(observed.failure === undefined ? {} : { failure: observed.failure }),
    duration_ms: observed.durationMs,
    terminal: {
      chunks: observed.recorder.chunks,
      omitted_chunks: observed.recorder.omissions,
      frames: observed.frames.frames,
      redaction: observed.redactor.active
        ? {
            version: SENSITIVE_REDACTION_VERSION,
            masked_count: observed.redactor.count,
            locations: observed.redactor.locations,
            locations_truncated: observed.redactor.count > MAX_REDACTION_LOCATIONS,
          }
        : null,
    },
    interactions: observed.interactions,
    exit: observed.exit,
    process: {
      root: rootRecord(observed.root),
      samples: observed.samples,
      coverage: 'sampled',
    },
    settlement: {
      status: observed.settlement.status,
      elapsed_ms: observed.settlement.elapsed_ms,
      ...(observed.settlement.reason === undefined ? {} : { reason: observed.settlement.reason }),
    },
    cleanup: {
      owned_processes: observed.owned.status,
      killed: observed.owned.processes,
      unverified_processes: [...observed.owned.unverified, ...observed.owned.unexplained].map((entry) => ({
        pid: entry.pid,
        start_ticks: entry.start_ticks ?? 0,
        reason: entry.reason,
        related: entry.related,
      })),
      renderer: observed.cleanupStates.renderer,
      temporary_root: observed.cleanupStates.temporary_root,
      elapsed_ms: observed.cleanupElapsedMs,
    },
    normalized_result: {
      files_before: files?.before.entries ?? null,
      files_after: files?.after?.entries ?? null,
    },
    filesystem:
      files === undefined
        ? { status: 'not_selected', roots: [], checkpoints: [], effects: [] }
        : {
            status: 'observed',
            roots: observed.scenario.filesystem_observation_paths.map((path, index) => ({
              alias: rootAlias(index),
              path,
              before: files.before.rootStates[index] ?? 'unreadable',
              after: files.after?.rootStates[index] ?? null,
            })),
            checkpoints: files.checkpoints,
            effects: files.effects,
          },
    truncation_details: {
      raw_terminal: { ...raw, drain: observed.drain, truncated: rawTruncated },
      rendered_terminal: { ...rendered, truncated: renderedTruncated },
      filesystem_before: files === undefined ? null : accountFor(files.before),
      filesystem_after: files?.after === undefined ? null : accountFor(files.after),
      process: {
        ...(observed.processAccounting ?? {
          sample_limit: observed.scenario.limits.process_samples,
          samples_retained: 0,
          limit_reached: false,
          partial: true,
        }),
        coverage: 'sampled',
      },
    },
    truncated:
      rawTruncated ||
      renderedTruncated ||
      filesystemTruncated ||
      (observed.processAccounting?.limit_reached ?? false),
    residual_unknowns: unknowns,
    journal: {
      complete: incompleteReasons.length === 0,
      next_sequence: observed.nextSequence,
      incomplete_reasons: incompleteReasons,
    },
  }
  return sealEvidence(body)
}

function rootRecord(root: CaptureObservations['root']): EvidenceBody['process']['root'] {
  if (root === null) {
    return null
  }
  const binding = root.binding
  const identity = binding?.identity ?? null
  return {
    pid: root.pid,
    start_ticks: identity?.start_ticks ?? null,
    boot_id: identity?.boot_id ?? null,
    binding: binding?.binding ?? 'unverified',
    ...(binding === undefined
      ? { binding_reason: 'binding did not run' }
      : binding.binding === 'unverified'
        ? { binding_reason: binding.reason }
        : {}),
  }
}

function residualUnknowns(
  observed: CaptureObservations,
  rawTruncated: boolean,
  renderedTruncated: boolean,
): ResidualUnknown[] {
  const unknowns: ResidualUnknown[] = []
  if (observed.drain === 'incomplete') {
    unknowns.push({
      dimension: 'terminal',
      reason: 'drain_incomplete',
      detail: 'the terminal closed before REA confirmed it had read everything the root wrote',
    })
  } else if (rawTruncated || renderedTruncated) {
    unknowns.push({
      dimension: 'terminal',
      reason: 'truncated',
      detail: 'a terminal budget dropped observations',
    })
  }
  if (observed.exit.signal === null) {
    unknowns.push({
      dimension: 'exit',
      reason: 'exit_not_observed',
      detail: 'the PTY never reported the root’s exit',
    })
  }
  const files = observed.filesystem
  if (files !== undefined && files.after === undefined) {
    unknowns.push({
      dimension: 'filesystem',
      reason: 'after_checkpoint_missing',
      detail: 'the after_settlement checkpoint was not taken',
    })
  }
  // Entries a cut enumeration never listed have no effect entry at all, so the cut itself is the unknown.
  for (const [checkpoint, snapshot] of [
    ['before_launch', files?.before],
    ['after_settlement', files?.after],
  ] as const) {
    for (const root of snapshot?.accounting.roots ?? []) {
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
  for (const effect of files?.effects ?? []) {
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
  if (observed.processAccounting === undefined) {
    unknowns.push({
      dimension: 'process',
      reason: 'process_inspection_unavailable',
      detail: `REA cannot inspect processes on ${process.platform}: the process tree was not observed`,
    })
  }
  for (const unverified of [...observed.owned.unverified, ...observed.owned.unexplained]) {
    unknowns.push({
      dimension: 'process',
      reason: unverified.related ? 'related_process_unverified' : 'unrelated_process_unverified',
      detail: `pid ${unverified.pid} started during the capture; ${unverified.reason}`,
    })
  }
  return unknowns
}

function isTruncated(snapshot: FilesystemSnapshot): boolean {
  const accounting = snapshot.accounting
  return (
    accounting.roots.some((root) => !root.exhausted) ||
    accounting.hash_omissions.length > 0 ||
    accounting.enumeration_failures.length > 0
  )
}

function accountFor(snapshot: FilesystemSnapshot): EvidenceBody['truncation_details']['filesystem_before'] {
  return { ...snapshot.accounting, truncated: isTruncated(snapshot) }
}
