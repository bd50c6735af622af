import {
  derivedIncompleteReasons,
  derivedResidualUnknowns,
  filesystemAccountingCut,
  type AccountedBody,
} from '../evidence/derived-unknowns.js'
import { EVIDENCE_FORMAT, EVIDENCE_FORMAT_VERSION } from '../evidence/format.js'
import { sealEvidence } from '../evidence/identity-digest.js'
import { rootAlias } from '../filesystem/aliases.js'
import type { FilesystemSnapshot } from '../filesystem/snapshot.js'
import type {
  CoverageRecord,
  Evidence,
  EvidenceBody,
  ExitRecord,
  FileEffect,
  FilesystemCheckpoint,
  Interaction,
  ProcessSample,
} from '../evidence/schema.js'
import type { ProcessAccounting } from '../process/sampler.js'
import type { RootBinding } from '../process/bind-root.js'
import type { OwnedCleanupResult } from '../process/cleanup.js'
import type { Settlement } from '../process/settle.js'
import type { Commitments } from '../evidence/commitments.js'
import type { ResolvedScenario } from '../scenario/resolve.js'
import type { DrainOutcome } from '../terminal/pty-backend.js'
import { REA_VERSION } from '../version.js'
import type { ObservedTerminal } from './observers.js'
import type { CaptureDisposition, CleanupStates } from './progress.js'

export interface FilesystemObservation {
  readonly before: FilesystemSnapshot
  /** Undefined when the after_settlement checkpoint could not be taken. */
  readonly after: FilesystemSnapshot | undefined
  readonly checkpoints: FilesystemCheckpoint[]
  readonly effects: FileEffect[]
}

export interface CaptureObservations {
  readonly resolved: ResolvedScenario
  /** The PTY backend that ran the command, named as `rea capabilities` names it (`native`, `node-pty`). */
  readonly ptyBackend: string
  readonly commitments: Commitments
  readonly capturedAt: string
  readonly durationMs: number
  readonly disposition: CaptureDisposition
  readonly failure: string | undefined
  /** Undefined when no coverage variable was set for the program. */
  readonly coverage: CoverageRecord | undefined
  readonly terminal: ObservedTerminal
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
  const { raw, rendered } = observed.terminal
  const rawTruncated = raw.omitted_chunks > 0 || observed.drain === 'incomplete'
  const renderedTruncated = rendered.omitted_for_budget > 0 || rendered.omitted_for_raw_gap > 0
  const files = observed.filesystem
  const filesystemCut =
    files !== undefined &&
    (isTruncated(files.before) || files.after === undefined || isTruncated(files.after))
  const accounted: AccountedBody = {
    format: EVIDENCE_FORMAT,
    format_version: EVIDENCE_FORMAT_VERSION,
    rea_version: REA_VERSION,
    captured_at: observed.capturedAt,
    host: {
      platform: process.platform,
      arch: process.arch,
      node_version: process.version,
      capture_root: observed.resolved.root,
      pty_backend: observed.ptyBackend,
    },
    commitments: observed.commitments,
    disposition: observed.disposition,
    ...(observed.failure === undefined ? {} : { failure: observed.failure }),
    ...(observed.coverage === undefined ? {} : { coverage: observed.coverage }),
    duration_ms: observed.durationMs,
    terminal: observed.terminal.terminal,
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
        start_ticks: entry.start_ticks,
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
    filesystem: filesystemRecord(observed),
    truncation_details: {
      raw_terminal: { ...raw, drain: observed.drain, truncated: rawTruncated },
      rendered_terminal: { ...rendered, truncated: renderedTruncated },
      filesystem_before: files === undefined ? null : accountFor(files.before),
      filesystem_after: files?.after === undefined ? null : accountFor(files.after),
      process: {
        ...(observed.processAccounting ?? {
          sample_limit: observed.resolved.scenario.limits.process_samples,
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
      filesystemCut ||
      (observed.processAccounting?.limit_reached ?? false),
  }
  // Residual unknowns and journal completeness follow from the accounting; import recomputes them the same way.
  const incompleteReasons = derivedIncompleteReasons(accounted)
  return sealEvidence({
    ...accounted,
    // What the observers could not do (a live terminal that stopped) comes after what the accounting implies.
    residual_unknowns: [...derivedResidualUnknowns(accounted), ...observed.terminal.unknowns],
    journal: {
      complete: incompleteReasons.length === 0,
      next_sequence: observed.nextSequence,
      incomplete_reasons: incompleteReasons,
    },
  })
}

function filesystemRecord(observed: CaptureObservations): EvidenceBody['filesystem'] {
  const files = observed.filesystem
  if (files === undefined) {
    return { status: 'not_selected', roots: [], checkpoints: [], effects: [] }
  }
  return {
    status: 'observed',
    roots: observed.resolved.scenario.filesystem_observation_paths.map((path, index) => ({
      alias: rootAlias(index),
      path,
      before: files.before.rootStates[index] ?? 'unreadable',
      after: files.after?.rootStates[index] ?? null,
    })),
    checkpoints: files.checkpoints,
    effects: files.effects,
  }
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

function isTruncated(snapshot: FilesystemSnapshot): boolean {
  return filesystemAccountingCut(snapshot.accounting)
}

function accountFor(snapshot: FilesystemSnapshot): EvidenceBody['truncation_details']['filesystem_before'] {
  return { ...snapshot.accounting, truncated: isTruncated(snapshot) }
}
