import { recordArtifact } from 'vitest'
import { ASSERTION_ARTIFACT_TYPE, type AssertionRecord, errorMessage } from '../../src/front-end.js'
import type { ReaAssertionArtifact } from './matcher-types.js'

/**
 * Artifacts and annotations being sent to the main process. `recordArtifact` is not among the promises Vitest
 * awaits for a test, and an annotation made by a failing assertion is not awaited either (the test has thrown),
 * while a synchronous matcher cannot await them: `flushArtifacts`, run after each test, does, so they arrive
 * before the file ends.
 */
const pendingArtifacts = new Set<Promise<void>>()

/** Keeps a message to the main process (an artifact, an annotation) until `flushArtifacts` has awaited it. */
export function awaitBeforeFileEnds(sent: Promise<void>): void {
  pendingArtifacts.add(sent)
  void sent.finally(() => pendingArtifacts.delete(sent))
}

export function recordForReporter(task: unknown, record: AssertionRecord): void {
  if (typeof task !== 'object' || task === null) {
    return
  }
  const artifact: ReaAssertionArtifact = { type: ASSERTION_ARTIFACT_TYPE, record }
  const sent = recordArtifact(task as Parameters<typeof recordArtifact>[0], artifact).then(
    () => undefined,
    (error: unknown) => {
      process.stderr.write(`rea: could not send a capture record to the reporter: ${errorMessage(error)}\n`)
    },
  )
  awaitBeforeFileEnds(sent)
}

export async function flushArtifacts(): Promise<void> {
  await Promise.all(pendingArtifacts)
}
