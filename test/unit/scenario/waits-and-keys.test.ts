import { describe, expect, test } from 'vitest'
import { isReaError, type ReaIssue } from '../../../src/errors.js'
import { validateScenario } from '../../../src/scenario/validate.js'

function issuesOf(input: unknown): ReaIssue[] {
  try {
    validateScenario(input)
  } catch (error) {
    if (isReaError(error)) {
      return [...error.issues]
    }
    throw error
  }
  return []
}

const scenario = (...events: unknown[]) => ({ executable: 'x', events })

describe('validateScenario: waits and keys', () => {
  test('accepts an event that only waits, and one that waits from an earliest time', () => {
    const validated = validateScenario(
      scenario(
        { type: 'input', data: 'ada\r', after: { screen: 'Name?' } },
        {
          type: 'input',
          keys: ['Down', 'Enter'],
          at_ms: 10,
          after: { output_regex: '^> ', quiet_ms: 100, within_ms: 5000 },
        },
        { type: 'resize', after: { output: 'ok' }, columns: 100, rows: 30 },
        { type: 'signal', at_ms: 20, signal: 'SIGINT' },
        { type: 'input', keys: ['x'], after: { gone: '-- INSERT --', within_ms: 2000 } },
      ),
    )
    expect(validated.events[4]?.after).toEqual({ gone: '-- INSERT --', within_ms: 2000 })
    expect(validated.events[0]).toEqual({
      type: 'input',
      data: 'ada\r',
      after: { screen: 'Name?' },
      sensitive: false,
    })
    expect(validated.terminal.answer_queries).toBe(true)
  })

  test('accepts a wait for quiet alone, and still rejects a wait that names nothing', () => {
    const validated = validateScenario(scenario({ type: 'input', keys: ['q'], after: { quiet_ms: 300 } }))
    expect(validated.events[0]?.after).toEqual({ quiet_ms: 300 })
    expect(issuesOf(scenario({ type: 'input', keys: ['q'], after: { within_ms: 300 } }))).toContainEqual(
      expect.objectContaining({
        path: 'events[0].after',
        rule: 'wait_condition',
        message: expect.stringContaining('or give quiet_ms alone'),
      }),
    )
  })

  test('defaults the dispatch model to settled-v1 and accepts immediate, to compare with older authorities', () => {
    expect(validateScenario(scenario()).event_dispatch).toBe('settled-v1')
    expect(validateScenario({ executable: 'x', event_dispatch: 'immediate' }).event_dispatch).toBe(
      'immediate',
    )
    expect(issuesOf({ executable: 'x', event_dispatch: 'typed' })).toContainEqual(
      expect.objectContaining({ path: 'event_dispatch' }),
    )
  })

  test.each([
    [{ type: 'input', data: 'x' }, 'events[0].at_ms', 'event_time'],
    [{ type: 'input', after: {}, data: 'x' }, 'events[0].after', 'wait_condition'],
    [{ type: 'input', after: { screen: 'a', output: 'b' }, data: 'x' }, 'events[0].after', 'wait_condition'],
    [{ type: 'input', after: { gone: 'a', screen: 'b' }, data: 'x' }, 'events[0].after', 'wait_condition'],
    [{ type: 'input', after: { gone: '' }, data: 'x' }, 'events[0].after.gone', 'minimum'],
    [
      { type: 'input', after: { output_regex: '(' }, data: 'x' },
      'events[0].after.output_regex',
      'wait_regex',
    ],
    [
      { type: 'input', after: { screen_regex: '\\p{Nope}' }, data: 'x' },
      'events[0].after.screen_regex',
      'wait_regex',
    ],
    [{ type: 'input', at_ms: 0 }, 'events[0]', 'input_content'],
    [{ type: 'input', at_ms: 0, data: 'x', keys: ['Enter'] }, 'events[0]', 'input_content'],
    [{ type: 'input', at_ms: 0, keys: ['Enter', 'Shift+Tab'] }, 'events[0].keys[1]', 'key_name'],
  ] as const)('rejects %o, naming %s (%s)', (event, path, rule) => {
    expect(issuesOf(scenario(event))).toContainEqual(expect.objectContaining({ path, rule }))
  })

  test.each([
    [
      { redactions: [{ regex: 'a(', replacement: 'x' }] },
      'normalization.redactions[0].regex',
      'redaction_regex',
    ],
    [{ placeholders: ['root', 'root'] }, 'normalization.placeholders', 'unique'],
    [{ placeholders: ['checkout'] }, 'normalization.placeholders[0]', 'choice'],
    [{ filters: ['dates'] }, 'normalization.filters[0]', 'choice'],
  ] as const)('rejects normalization %o, naming %s (%s)', (normalization, path, rule) => {
    const issues = issuesOf({ executable: 'node', normalization })
    expect(issues).toContainEqual(expect.objectContaining({ path, rule }))
  })

  test('names the regex syntax error', () => {
    const [issue] = issuesOf(scenario({ type: 'input', after: { output_regex: 'a(' }, data: 'x' }))
    expect(issue?.message).toMatch(/flags mu.*(unterminated|Unterminated|group)/)
  })

  test('orders only the at_ms values that are given', () => {
    expect(
      issuesOf(
        scenario(
          { type: 'input', at_ms: 500, data: 'a' },
          { type: 'input', after: { output: 'x' }, data: 'b' },
          { type: 'input', at_ms: 400, data: 'c' },
        ),
      ),
    ).toEqual([expect.objectContaining({ path: 'events[2].at_ms', rule: 'event_order' })])
  })
})
