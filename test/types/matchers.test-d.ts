import { expect as jestExpect } from 'expect'
import { describe, expectTypeOf, test } from 'vitest'
import { configureRea, expect, test as captureTest, type BoundCaptureProcess } from '../../matchers/vitest.js'
import { configureRea as configureJest } from '../../matchers/jest.js'
import type { Evidence, TraceSpec } from '../../src/index.js'

declare const evidence: Evidence
declare const spec: TraceSpec

describe('Vitest matchers (rea-capture/vitest)', () => {
  test('toMatchCapture takes nothing, a path or Evidence, on a capture', () => {
    expectTypeOf(expect(evidence).toMatchCapture).toBeCallableWith()
    expectTypeOf(expect(evidence).toMatchCapture).toBeCallableWith('fixtures/authority.capture.json')
    expectTypeOf(expect(evidence).toMatchCapture).toBeCallableWith(evidence)
    expectTypeOf(expect(evidence).not.toMatchCapture).toBeCallableWith()
    // @ts-expect-error an authority is a path or Evidence, not a number
    expect(evidence).toMatchCapture(42)
  })

  test('both matchers take options; a timing policy is a name or an explicit tolerance', () => {
    expectTypeOf(expect(evidence).toMatchCapture).toBeCallableWith({ timing: 'strict' })
    expectTypeOf(expect(evidence).toMatchCapture).toBeCallableWith('a.capture.json', { timing: 'ignore' })
    expectTypeOf(expect(evidence).toMatchCapture).toBeCallableWith(undefined, {
      timing: { tolerance_ms: 100, ratio: 0.5 },
    })
    expectTypeOf(expect(evidence).toSatisfyTrace).toBeCallableWith(spec, { timing: 'tolerant' })
    // @ts-expect-error not a timing policy
    expect(evidence).toMatchCapture({ timing: 'fast' })
    // @ts-expect-error an explicit tolerance names both fields
    expect(evidence).toMatchCapture(undefined, { timing: { ratio: 0.5 } })
    expectTypeOf(configureRea).toBeCallableWith({ timing: 'ignore' })
    expectTypeOf(configureJest).toBeCallableWith({ timing: { tolerance_ms: 0, ratio: 1 } })
    expectTypeOf(expect(evidence).toMatchCapture).toBeCallableWith({ terminal: 'screens' })
    expectTypeOf(configureRea).toBeCallableWith({ terminal: 'stream', timing: 'strict' })
    // @ts-expect-error not a terminal comparison level
    expect(evidence).toMatchCapture({ terminal: 'cells' })
  })

  test('toSatisfyTrace takes a specification or a path', () => {
    expectTypeOf(expect(evidence).toSatisfyTrace).toBeCallableWith(spec)
    expectTypeOf(expect(evidence).toSatisfyTrace).toBeCallableWith('trace.json')
    // @ts-expect-error a specification is required
    expect(evidence).toSatisfyTrace()
  })

  test('a promised capture works with .resolves, which returns a promise to await', () => {
    expectTypeOf(expect(Promise.resolve(evidence)).resolves.toMatchCapture).toBeCallableWith()
    expectTypeOf(expect(Promise.resolve(evidence)).resolves.toMatchCapture()).toEqualTypeOf<Promise<void>>()
    expectTypeOf(expect(evidence).toMatchCapture()).toBeVoid()
    expectTypeOf(expect.soft(evidence).toSatisfyTrace).toBeCallableWith(spec)
    // @ts-expect-error a promised string is not a capture either
    void expect(Promise.resolve('text')).resolves.toMatchCapture()
  })

  test('the matchers exist only on captures', () => {
    // @ts-expect-error a string is not Evidence
    expect('text').toMatchCapture()
  })

  test('the fixture gives each test a bound captureProcess without a root option', () => {
    captureTest('uses the fixture', async ({ captureProcess }) => {
      expectTypeOf(captureProcess).toEqualTypeOf<BoundCaptureProcess>()
      expectTypeOf(await captureProcess({ executable: 'true' })).toEqualTypeOf<Evidence>()
      // @ts-expect-error the capture root is the runner's
      await captureProcess({ executable: 'true' }, { root: '/elsewhere' })
    })
  })
})

describe('Jest matchers (rea-capture/jest)', () => {
  test('the expect module is augmented', () => {
    expectTypeOf(jestExpect(evidence).toMatchCapture).toBeCallableWith('authority.capture.json')
    expectTypeOf(jestExpect(evidence).toSatisfyTrace).toBeCallableWith(spec)
    // @ts-expect-error an authority is a path or Evidence
    jestExpect(evidence).toMatchCapture(42)
  })
})
