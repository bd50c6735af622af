import type { TestArtifactBase } from 'vitest'
import type {
  ASSERTION_ARTIFACT_TYPE,
  AssertionRecord,
  Evidence,
  MatcherOptions,
  TraceSpecInput,
} from '../../src/front-end.js'
import type { CaptureMatcher } from '../capture-matcher.js'

/** The test artifact each capture assertion records for `rea-capture/reporter`. */
export interface ReaAssertionArtifact extends TestArtifactBase {
  readonly type: typeof ASSERTION_ARTIFACT_TYPE
  readonly record: AssertionRecord
}

declare module 'vitest' {
  interface TestArtifactRegistry {
    'rea:assertion': ReaAssertionArtifact
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- must match Vitest’s declaration exactly to merge
  interface Matchers<T = any> {
    /**
     * Compares the capture with its authority: the default file next to the test, a file path (relative to
     * the test file) or an Evidence object; `options.timing` sets how times count. See docs/vitest.md.
     */
    toMatchCapture: CaptureMatcher<
      T,
      (authority?: string | Evidence | MatcherOptions, options?: MatcherOptions) => void
    >
    /** Checks the capture's event journal against a trace specification (object or file path). */
    toSatisfyTrace: CaptureMatcher<T, (spec: string | TraceSpecInput, options?: MatcherOptions) => void>
  }
}
