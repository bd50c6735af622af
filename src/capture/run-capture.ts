import { coverageRecord } from '../coverage/coverage-record.js'
import { buildCommitments } from '../evidence/commitments.js'
import type { Evidence } from '../evidence/schema.js'
import { assembleEvidence } from './assemble-evidence.js'
import { cleanUpRun } from './clean-up-run.js'
import { FilesystemCheckpoints } from './filesystem-checkpoints.js'
import { launchCommand, type CaptureRequest } from './launch.js'
import { observedTerminal } from './observers.js'
import { observeRun } from './observe-run.js'
import { LiveStatus } from './live-status.js'
import { ProgressReporter } from './progress.js'
import { createRunContext } from './run-context.js'
import { settleRun } from './settle-run.js'
import { createMonotonicClock, type MonotonicClock } from '../internal/monotonic-clock.js'

/**
 * Runs one capture through its phases, each in a module of its own — launch, observe (the running phase),
 * settle, clean up, assemble — and returns sealed Evidence. Cleanup runs on every path, including failures
 * inside REA, before anything is returned.
 */
export async function runCapture(request: CaptureRequest): Promise<Evidence> {
  const wall = createMonotonicClock()
  const status = new LiveStatus(request.onStatus, () => wall.nowMs(), request.resolved.scenario.events.length)
  try {
    return await runPhases(request, wall, status)
  } finally {
    status.stop()
  }
}

async function runPhases(
  request: CaptureRequest,
  wall: MonotonicClock,
  status: LiveStatus,
): Promise<Evidence> {
  const { resolved, signal } = request
  const capturedAt = new Date().toISOString()
  const reporter = new ProgressReporter(request.onProgress, () => wall.nowMs())
  reporter.update('prepare')
  status.enter('prepare')
  const commitments = buildCommitments(resolved)
  const files = new FilesystemCheckpoints(resolved, signal)
  await files.takeBefore()

  const launch = await launchCommand(request)
  const run = createRunContext(request, launch, files, reporter)
  const { observers, sampler, progress } = run
  files.recordLaunch(observers.journal)
  progress.update()
  status.enter('running', {
    outputBytes: () => observers.recorder.accounting.observed_bytes,
    dueEvent: () => run.scheduler?.dueEvent,
  })
  const observed = await observeRun(run)

  reporter.update('settling', progress.counts())
  status.enter('settling')
  const settled = await settleRun(run)

  reporter.update('cleanup', progress.counts())
  status.enter('cleanup')
  const cleaned = await cleanUpRun(run, settled.settlement)
  reporter.finish(observed.ending.disposition, cleaned.states, progress.counts())
  // Every process the capture owned has ended: its coverage files are complete.
  const coverage = coverageRecord(resolved, request.coverage)

  const { root } = launch
  return assembleEvidence({
    resolved,
    ptyBackend: request.backend.name,
    commitments,
    capturedAt,
    durationMs: Math.round(wall.preciseMs()),
    disposition: observed.ending.disposition,
    failure: observed.ending.failure,
    coverage,
    terminal: observedTerminal(observers),
    interactions: settled.interactions,
    filesystem: files.observation(),
    samples: sampler?.samples ?? [],
    processAccounting: sampler?.accounting,
    drain: observed.ending.exit?.drain ?? 'incomplete',
    exit: observed.exit,
    root: root === undefined ? null : { pid: root.session.pid, binding: cleaned.rootBinding },
    settlement: settled.settlement,
    owned: cleaned.owned,
    cleanupStates: cleaned.states,
    cleanupElapsedMs: cleaned.elapsedMs,
    nextSequence: observers.journal.nextSequence,
  })
}
