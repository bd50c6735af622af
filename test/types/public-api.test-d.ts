import { describe, expectTypeOf, test } from 'vitest'
import {
  captureProcess,
  isReaError,
  parseEvidence,
  validateScenario,
  type CoverageOptions,
  type Evidence,
  type ProcessScenario,
  type ProcessScenarioInput,
  type ProgressRecord,
  type CaptureStatus,
  type ReaErrorCode,
} from '../../src/index.js'

describe('scenario types', () => {
  test('only executable is required in a scenario as written', () => {
    expectTypeOf<{ executable: string }>().toExtend<ProcessScenarioInput>()
    // @ts-expect-error executable is required
    expectTypeOf<{ arguments: string[] }>().toExtend<ProcessScenarioInput>()
  })

  test('a validated scenario has every default applied', () => {
    expectTypeOf(validateScenario).returns.toEqualTypeOf<ProcessScenario>()
    expectTypeOf<ProcessScenario['finalization_ms']>().toEqualTypeOf<number>()
    expectTypeOf<ProcessScenario['idle_timeout_ms']>().toEqualTypeOf<number | null>()
    expectTypeOf<ProcessScenario['environment']>().toEqualTypeOf<Record<string, string | null>>()
    expectTypeOf<ProcessScenario['terminal']>().toEqualTypeOf<{
      columns: number
      rows: number
      scrollback: number
      answer_queries: boolean
      width_model: 'grapheme-clusters-v1' | 'unicode-6'
    }>()
  })

  test('events are a union discriminated by type', () => {
    type Event = ProcessScenario['events'][number]
    expectTypeOf<Extract<Event, { type: 'resize' }>>().toHaveProperty('columns')
    expectTypeOf<Extract<Event, { type: 'input' }>['sensitive']>().toEqualTypeOf<boolean>()
    const bad: ProcessScenarioInput = {
      executable: 'x',
      // @ts-expect-error SIGFOO is not a scenario signal
      events: [{ type: 'signal', at_ms: 0, signal: 'SIGFOO' }],
    }
    expectTypeOf(bad).toEqualTypeOf<ProcessScenarioInput>()
  })
})

describe('captureProcess', () => {
  test('resolves with Evidence and takes camelCase options', () => {
    expectTypeOf(captureProcess).returns.resolves.toEqualTypeOf<Evidence>()
    expectTypeOf(captureProcess).parameter(1).toEqualTypeOf<
      | {
          readonly root?: string
          readonly signal?: AbortSignal
          readonly onProgress?: (record: ProgressRecord) => void
          readonly onStatus?: (status: CaptureStatus) => void
          readonly coverage?: CoverageOptions
        }
      | undefined
    >()
    // @ts-expect-error options are camelCase; on_progress is not one
    void captureProcess({ executable: 'x' }, { on_progress: () => undefined })
  })
})

describe('Evidence', () => {
  test('uses the snake_case wire names and tri-state unions', () => {
    expectTypeOf<Evidence['exit']['code']>().toEqualTypeOf<number | null>()
    expectTypeOf<Evidence['disposition']>().toEqualTypeOf<
      'exited' | 'timeout' | 'idle_timeout' | 'cancelled' | 'failed'
    >()
    expectTypeOf<Evidence['truncation_details']['raw_terminal']['drain']>().toEqualTypeOf<
      'complete' | 'incomplete'
    >()
    expectTypeOf(parseEvidence).returns.toEqualTypeOf<Evidence>()
  })

  test('narrows frames by status', () => {
    type Frame = Evidence['terminal']['frames'][number]
    expectTypeOf<Extract<Frame, { status: 'retained' }>['lines']>().toEqualTypeOf<string[]>()
    // @ts-expect-error an omitted frame has no lines
    expectTypeOf<Extract<Frame, { status: 'omitted' }>['lines']>().toBeNever()
  })
})

describe('errors', () => {
  test('isReaError narrows to an error with a code from the documented list', () => {
    const value: unknown = new Error('x')
    if (isReaError(value)) {
      expectTypeOf(value.code).toEqualTypeOf<ReaErrorCode>()
      expectTypeOf(value.issues).toEqualTypeOf<
        readonly { readonly path: string; readonly rule: string; readonly message: string }[]
      >()
    }
  })
})
