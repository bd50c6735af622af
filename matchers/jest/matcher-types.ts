import type {} from 'expect'
import type { Evidence, MatcherOptions, TraceSpecInput } from '../../src/front-end.js'
import type { CaptureMatcher } from '../capture-matcher.js'

declare module 'expect' {
  interface Matchers<R extends void | Promise<void>, T = unknown> {
    /** Compares the capture with its authority (default file, path relative to the test, or Evidence). */
    toMatchCapture: CaptureMatcher<
      T,
      (authority?: string | Evidence | MatcherOptions, options?: MatcherOptions) => R
    >
    /** Checks the capture's event journal against a trace specification (object or file path). */
    toSatisfyTrace: CaptureMatcher<T, (spec: string | TraceSpecInput, options?: MatcherOptions) => R>
  }
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- @types/jest declares its matchers in this namespace
  namespace jest {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- must match @types/jest exactly to merge
    interface Matchers<R, T = {}> {
      toMatchCapture: CaptureMatcher<
        T,
        (authority?: string | Evidence | MatcherOptions, options?: MatcherOptions) => R
      >
      toSatisfyTrace: CaptureMatcher<T, (spec: string | TraceSpecInput, options?: MatcherOptions) => R>
    }
  }
}
