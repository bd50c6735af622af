import type { Evidence } from '../src/front-end.js'

/**
 * A matcher's type on `expect(value)`: callable when the value is Evidence (or `any`, which may hold a
 * capture); on anything else it demands an impossible argument, so `expect('text').toMatchCapture()` is a
 * type error instead of a runtime failure.
 */
export type CaptureMatcher<T, F> = 0 extends 1 & T
  ? F
  : T extends
        Evidence | PromiseLike<Evidence> // a promise, for expect(promise).resolves
    ? F
    : (notACapture: never) => void
