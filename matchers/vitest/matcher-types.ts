import type { expect, TestArtifactBase } from 'vitest'
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

/**
 * The value an assertion is made on, read from the assertion's own type (Vitest 4 `Assertion<T>`, Vitest 5
 * `Assertion<R, T>`). Anything that is not an assertion (`expect.extend`'s matcher object, `expect` itself, the
 * asymmetric matchers) takes any value, as Vitest's own declaration does; without this guard Vitest 4's
 * `MatchersObject` sends the inference below into "excessively deep".
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- what Vitest's own declaration allows there
type AssertedValue<A> = A extends { resolves: unknown; toBeTypeOf: unknown } ? AssertionValue<A> : any
type AssertionValue<A> =
  A extends ReturnType<typeof expect<infer T>>
    ? T
    : A extends ReturnType<typeof expect.poll<infer T>> // Vitest 5's `.resolves`: Assertion<Promise<void>, T>
      ? T
      : any // eslint-disable-line @typescript-eslint/no-explicit-any -- an assertion of another shape: anything
/** What a matcher returns on that assertion: Vitest 5's `R` (`Promise<void>` after `.resolves`); Vitest 4's `void`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-invalid-void-type -- Vitest's own R
type AssertionReturn<A> = A extends { toBeTypeOf: (...args: any[]) => infer R } ? R : void

declare module 'vitest' {
  interface TestArtifactRegistry {
    'rea:assertion': ReaAssertionArtifact
  }
  // No type parameters: Vitest 4 declares `Matchers<T = any>`, Vitest 5 `Matchers<R extends void | Promise<void>,
  // T>`, and a merged declaration must repeat the other's parameters by name (TS2428 under either major). With none,
  // it merges with both, and the assertion (`this`) supplies the value and the return type instead.
  interface Matchers {
    /**
     * Compares the capture with its authority: the default file next to the test, a file path (relative to
     * the test file) or an Evidence object; `options.timing` sets how times count. See docs/vitest.md.
     */
    toMatchCapture: CaptureMatcher<
      AssertedValue<this>,
      (authority?: string | Evidence | MatcherOptions, options?: MatcherOptions) => AssertionReturn<this>
    >
    /** Checks the capture's event journal against a trace specification (object or file path). */
    toSatisfyTrace: CaptureMatcher<
      AssertedValue<this>,
      (spec: string | TraceSpecInput, options?: MatcherOptions) => AssertionReturn<this>
    >
  }
}
