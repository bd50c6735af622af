import { afterAll, afterEach, expect } from 'vitest'
import { AssertionCounter, createMatchers, UsedAuthorities } from '../src/front-end.js'
import { annotateFailure } from './vitest/annotations.js'
import { collectVitestCaptureCoverage } from './vitest/coverage.js'
import { flushArtifacts, recordForReporter } from './vitest/artifacts.js'
import { afterTestFile } from './vitest/obsolete-tracking.js'
import { countVitestSnapshot } from './vitest/snapshot-summary.js'
import { firstRegistrationForThisFile, recording, vitestProject, vitestRoot } from './vitest/worker.js'

/**
 * `rea-capture/vitest`: import it once from `setupFiles` (or from a test file) to register `toMatchCapture` and
 * `toSatisfyTrace`; import `test` from it for a `captureProcess` fixture bound to each test.
 */

function register(): void {
  // With Vitest's v8 coverage on, what captured programs run shows in its report (docs/coverage.md).
  collectVitestCaptureCoverage()
  const used = new UsedAuthorities()
  try {
    afterEach(flushArtifacts)
    afterAll(afterTestFile(used))
  } catch {
    // Imported outside a test file or setup file (no suite to attach to): the fixture still flushes.
  }
  const counter = new AssertionCounter()
  const entries = new AssertionCounter()
  // No per-test reset here: numbering follows each test's task, so same-named tests get 1 and 2 like snapshots.
  expect.extend(
    createMatchers(
      {
        updateCommand: 'vitest -u',
        root: vitestRoot,
        project: vitestProject,
        recording,
        record: (state, record) => recordForReporter(state.task, record),
        failed: annotateFailure,
        countSnapshot: countVitestSnapshot,
      },
      counter,
      entries,
      used,
    ),
  )
}

// Listed twice in a project's setup files (Vitest 5's inline projects inherit the root's), it registers once.
if (firstRegistrationForThisFile()) {
  register()
}

export { configureRea } from './configure-rea.js'
export { ANNOTATE_ENV, DIVERGENCE_ANNOTATION_TYPE, SCREENS_ANNOTATION_TYPE } from './vitest/annotations.js'
export { type BoundCaptureProcess, it, test } from './vitest/fixture.js'
export { defineMarkdownTests } from './vitest/markdown.js'
export type { ReaAssertionArtifact } from './vitest/matcher-types.js'
export { vitestRoot } from './vitest/worker.js'
export { expect }
