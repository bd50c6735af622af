import { describe, expect, test } from 'vitest'
import { type ReaError, type ReaIssue } from '../../../src/errors.js'
import {
  DEFAULT_LIMITS,
  DEFAULT_SETTLE_MS,
  DEFAULT_TERMINAL,
  DEFAULT_TIMEOUT_MS,
  SCENARIO_SIGNALS,
} from '../../../src/scenario/schema.js'
import { validateScenario } from '../../../src/scenario/validate.js'
import { rejection } from '../../helpers/rejection.js'

const MAX = Number.MAX_SAFE_INTEGER

/** The error `validateScenario` throws for `input`; fails the test when it does not throw a ReaError. */
const scenarioRejection = (input: unknown): ReaError => rejection(() => validateScenario(input))

const issuesOf = (input: unknown): readonly ReaIssue[] => scenarioRejection(input).issues
const issue = (path: string, rule: string) => expect.objectContaining({ path, rule }) as unknown

describe('validateScenario', () => {
  describe('defaults', () => {
    test('applies every documented default to a scenario naming only the executable', () => {
      expect(validateScenario({ executable: 'echo' })).toEqual({
        executable: 'echo',
        arguments: [],
        working_directory: '.',
        environment: {},
        filesystem_observation_paths: [],
        terminal: { ...DEFAULT_TERMINAL },
        events: [],
        event_dispatch: 'settled-v1',
        timeout_ms: DEFAULT_TIMEOUT_MS,
        idle_timeout_ms: null,
        settle_ms: DEFAULT_SETTLE_MS,
        finalization_ms: 0,
        limits: { ...DEFAULT_LIMITS },
        normalization: { patterns: [], ports: true },
      })
    })

    test('documents the default values the constants hold', () => {
      expect({ DEFAULT_TERMINAL, DEFAULT_TIMEOUT_MS, DEFAULT_SETTLE_MS, DEFAULT_LIMITS }).toEqual({
        DEFAULT_TERMINAL: {
          columns: 80,
          rows: 24,
          scrollback: 1000,
          answer_queries: true,
          width_model: 'grapheme-clusters-v1',
        },
        DEFAULT_TIMEOUT_MS: 30_000,
        DEFAULT_SETTLE_MS: 100,
        DEFAULT_LIMITS: {
          output_bytes: 1_048_576,
          rendered_bytes: 4_194_304,
          file_bytes: 67_108_864,
          file_count: 10_000,
          filesystem_depth: 32,
          process_samples: 1000,
        },
      })
    })

    test.for([
      ['terminal', { ...DEFAULT_TERMINAL }],
      ['limits', { ...DEFAULT_LIMITS }],
      ['normalization', { patterns: [], ports: true }],
    ] as const)('fills in %s when it is given as an empty object', ([field, expected]) => {
      const scenario = validateScenario({ executable: 'echo', [field]: {} })
      expect(scenario[field]).toEqual(expected)
    })

    test.for([
      [
        'terminal',
        { columns: 100 },
        {
          columns: 100,
          rows: 24,
          scrollback: 1000,
          answer_queries: true,
          width_model: 'grapheme-clusters-v1',
        },
      ],
      [
        'terminal',
        { scrollback: 0 },
        { columns: 80, rows: 24, scrollback: 0, answer_queries: true, width_model: 'grapheme-clusters-v1' },
      ],
      ['limits', { file_count: 7 }, { ...DEFAULT_LIMITS, file_count: 7 }],
      ['normalization', { ports: false }, { patterns: [], ports: false }],
    ] as const)('fills in the omitted fields of a partial %s object (%o)', ([field, given, expected]) => {
      expect(validateScenario({ executable: 'echo', [field]: given })[field]).toEqual(expected)
    })

    test('defaults an input event to non-sensitive', () => {
      const scenario = validateScenario({
        executable: 'cat',
        events: [{ type: 'input', at_ms: 0, data: 'x' }],
      })
      expect(scenario.events).toEqual([{ type: 'input', at_ms: 0, data: 'x', sensitive: false }])
    })

    test('validates a scenario omitting defaults to the same value as one writing them', () => {
      const written = {
        executable: 'echo',
        arguments: [],
        working_directory: '.',
        environment: {},
        filesystem_observation_paths: [],
        terminal: {
          columns: 80,
          rows: 24,
          scrollback: 1000,
          answer_queries: true,
          width_model: 'grapheme-clusters-v1',
        },
        events: [],
        event_dispatch: 'settled-v1',
        timeout_ms: 30_000,
        idle_timeout_ms: null,
        settle_ms: 100,
        finalization_ms: 0,
        limits: {
          output_bytes: 1_048_576,
          rendered_bytes: 4_194_304,
          file_bytes: 67_108_864,
          file_count: 10_000,
          filesystem_depth: 32,
          process_samples: 1000,
        },
        normalization: { patterns: [], ports: true },
      }
      expect(validateScenario({ executable: 'echo' })).toEqual(validateScenario(written))
      expect(validateScenario(written)).toEqual(written)
    })
  })

  describe('unknown fields', () => {
    test.for([
      ['the top level', { executable: 'echo', bogus: 1 }, 'bogus'],
      ['terminal', { executable: 'echo', terminal: { colums: 80 } }, 'terminal.colums'],
      ['limits', { executable: 'echo', limits: { output: 1 } }, 'limits.output'],
      ['normalization', { executable: 'echo', normalization: { port: false } }, 'normalization.port'],
      [
        'a normalization pattern',
        { executable: 'echo', normalization: { patterns: [{ pattern: 'a', replacement: 'b', flags: 'g' }] } },
        'normalization.patterns[0].flags',
      ],
      [
        'an input event',
        { executable: 'echo', events: [{ type: 'input', at_ms: 0, data: 'x', delay: 1 }] },
        'events[0].delay',
      ],
      [
        'a resize event',
        { executable: 'echo', events: [{ type: 'resize', at_ms: 0, columns: 80, rows: 24, scrollback: 0 }] },
        'events[0].scrollback',
      ],
      [
        'a signal event',
        { executable: 'echo', events: [{ type: 'signal', at_ms: 0, signal: 'SIGINT', target: 'group' }] },
        'events[0].target',
      ],
    ] as const)('rejects an unknown field in %s', ([, input, path]) => {
      expect(issuesOf(input)).toEqual([issue(path, 'unknown_field')])
    })

    test('lists the valid field names in an unknown-field message', () => {
      const [found] = issuesOf({ executable: 'echo', terminal: { colums: 80 } })
      expect(found?.message).toContain('columns, rows, scrollback')
    })
  })

  describe('event order and timing', () => {
    test('rejects an event scheduled before the previous one', () => {
      const issues = issuesOf({
        executable: 'cat',
        events: [
          { type: 'input', at_ms: 100, data: 'a' },
          { type: 'input', at_ms: 50, data: 'b' },
        ],
      })
      expect(issues).toEqual([issue('events[1].at_ms', 'event_order')])
      expect(issues[0]?.message).toContain('got 50 after 100')
    })

    test('accepts events sharing the same at_ms', () => {
      const events = [
        { type: 'input', at_ms: 100, data: 'a', sensitive: false },
        { type: 'signal', at_ms: 100, signal: 'SIGINT' },
      ]
      expect(validateScenario({ executable: 'cat', events }).events).toEqual(events)
    })

    test('compares each event with the latest valid at_ms before it', () => {
      const issues = issuesOf({
        executable: 'cat',
        events: [
          { type: 'input', at_ms: 300, data: 'a' },
          { type: 'input', at_ms: 200, data: 'b' },
          { type: 'input', at_ms: 250, data: 'c' },
        ],
      })
      expect(issues).toEqual([issue('events[1].at_ms', 'event_order')])
    })

    test.for([
      { timeout: '1000', timeout_ms: 1000, at_ms: 1001, accepted: false },
      { timeout: '1000', timeout_ms: 1000, at_ms: 1000, accepted: true },
      { timeout: 'the default', timeout_ms: undefined, at_ms: 30_001, accepted: false },
      { timeout: 'the default', timeout_ms: undefined, at_ms: 30_000, accepted: true },
    ])(
      'checks an event at $at_ms ms against a timeout_ms of $timeout (accepted: $accepted)',
      ({ timeout_ms, at_ms, accepted }) => {
        const input = {
          executable: 'cat',
          ...(timeout_ms === undefined ? {} : { timeout_ms }),
          events: [
            { type: 'input', at_ms: 0, data: 'a' },
            { type: 'signal', at_ms, signal: 'SIGTERM' },
          ],
        }
        if (accepted) {
          expect(validateScenario(input).events[1]?.at_ms).toBe(at_ms)
        } else {
          const issues = issuesOf(input)
          expect(issues).toEqual([issue('events[1].at_ms', 'event_within_timeout')])
          expect(issues[0]?.message).toContain((timeout_ms ?? 30_000).toLocaleString('en-US'))
          expect(issues[0]?.message).toContain(at_ms.toLocaleString('en-US'))
        }
      },
    )
  })

  describe('terminal cell budget', () => {
    test('rejects a start size beyond 1,000,000 cells and names the cell count', () => {
      const issues = issuesOf({
        executable: 'echo',
        terminal: { columns: 200, rows: 3000, scrollback: 13_000 },
      })
      expect(issues).toEqual([issue('terminal', 'cell_budget')])
      expect(issues[0]?.message).toContain('3,200,000')
    })

    test.for([
      { columns: 1000, rows: 1000, scrollback: 0, cells: 1_000_000, accepted: true },
      { columns: 101, rows: 9901, scrollback: 0, cells: 1_000_001, accepted: false },
      { columns: 500, rows: 1000, scrollback: undefined, cells: 1_000_000, accepted: true },
      { columns: 500, rows: 1001, scrollback: undefined, cells: 1_000_500, accepted: false },
    ])('checks a start size of $cells cells (accepted: $accepted)', ({ cells, accepted, ...terminal }) => {
      const written = JSON.parse(JSON.stringify(terminal)) as object
      const input = { executable: 'echo', terminal: written }
      if (accepted) {
        expect(validateScenario(input).terminal).toEqual({
          scrollback: 1000,
          answer_queries: true,
          width_model: 'grapheme-clusters-v1',
          ...written,
        })
      } else {
        const issues = issuesOf(input)
        expect(issues).toEqual([issue('terminal', 'cell_budget')])
        expect(issues[0]?.message).toContain(cells.toLocaleString('en-US'))
      }
    })

    test.for([
      { label: '0', scrollback: 0, columns: 1000, rows: 1000, cells: 1_000_000, accepted: true },
      { label: '1', scrollback: 1, columns: 1000, rows: 1000, cells: 1_001_000, accepted: false },
      { label: '0', scrollback: 0, columns: 101, rows: 9901, cells: 1_000_001, accepted: false },
      { label: 'default', scrollback: undefined, columns: 500, rows: 1000, cells: 1_000_000, accepted: true },
      {
        label: 'default',
        scrollback: undefined,
        columns: 1000,
        rows: 1000,
        cells: 2_000_000,
        accepted: false,
      },
    ])(
      'checks a resize to $columns×$rows with the scenario scrollback $label (accepted: $accepted)',
      ({ scrollback, columns, rows, cells, accepted }) => {
        const input = {
          executable: 'echo',
          terminal: { columns: 10, rows: 10, ...(scrollback === undefined ? {} : { scrollback }) },
          events: [
            { type: 'input', at_ms: 0, data: 'x' },
            { type: 'resize', at_ms: 10, columns, rows },
          ],
        }
        if (accepted) {
          expect(validateScenario(input).events[1]).toEqual({ type: 'resize', at_ms: 10, columns, rows })
        } else {
          const issues = issuesOf(input)
          expect(issues).toEqual([issue('events[1]', 'cell_budget')])
          expect(issues[0]?.message).toContain(cells.toLocaleString('en-US'))
          expect(issues[0]?.message).toContain('resize')
        }
      },
    )
  })

  describe('lifecycle budget', () => {
    test.for([
      { timeout_ms: MAX - 100, finalization_ms: undefined, settle_ms: undefined, accepted: true },
      { timeout_ms: MAX - 100, finalization_ms: 1, settle_ms: undefined, accepted: false },
      { timeout_ms: MAX - 200, finalization_ms: 100, settle_ms: 100, accepted: true },
      { timeout_ms: MAX - 200, finalization_ms: 100, settle_ms: 101, accepted: false },
      { timeout_ms: MAX - 200, finalization_ms: 101, settle_ms: 100, accepted: false },
      { timeout_ms: MAX, finalization_ms: 0, settle_ms: 0, accepted: true },
      { timeout_ms: MAX, finalization_ms: undefined, settle_ms: undefined, accepted: false },
    ])(
      'checks timeout $timeout_ms + finalization $finalization_ms + settle $settle_ms (accepted: $accepted)',
      (row) => {
        const input = JSON.parse(
          JSON.stringify({ executable: 'echo', ...row, accepted: undefined }),
        ) as object
        if (row.accepted) {
          expect(validateScenario(input).timeout_ms).toBe(row.timeout_ms)
        } else {
          const issues = issuesOf(input)
          expect(issues).toEqual([issue('timeout_ms', 'lifecycle_budget')])
          expect(issues[0]?.message).toContain('9,007,199,254,740,991')
        }
      },
    )
  })

  describe('environment', () => {
    test('rejects an override of REA_RUN_TOKEN', () => {
      const issues = issuesOf({ executable: 'echo', environment: { REA_RUN_TOKEN: 'mine' } })
      expect(issues).toEqual([issue('environment.REA_RUN_TOKEN', 'reserved_variable')])
    })

    test('rejects removing REA_RUN_TOKEN with null as well', () => {
      expect(issuesOf({ executable: 'echo', environment: { REA_RUN_TOKEN: null } })).toEqual([
        issue('environment.REA_RUN_TOKEN', 'reserved_variable'),
      ])
    })

    test.for(['NODE_V8_COVERAGE', 'LLVM_PROFILE_FILE', 'GOCOVERDIR', 'COVERAGE_PROCESS_START'])(
      'rejects setting or removing the coverage variable %s: coverage stays outside the contract',
      (name) => {
        expect(issuesOf({ executable: 'echo', environment: { [name]: '/somewhere' } })).toEqual([
          issue(`environment.${name}`, 'coverage_variable'),
        ])
        expect(issuesOf({ executable: 'echo', environment: { [name]: null } })).toEqual([
          issue(`environment.${name}`, 'coverage_variable'),
        ])
      },
    )

    test('keeps null values, which remove an inherited variable', () => {
      const scenario = validateScenario({ executable: 'echo', environment: { CI: null, LANG: 'C' } })
      expect(scenario.environment).toEqual({ CI: null, LANG: 'C' })
    })

    test.for(['A=B', '=A', 'A='])('rejects the environment name %j, which contains "="', (name) => {
      const issues = issuesOf({ executable: 'echo', environment: { OK: '1', [name]: 'x' } })
      expect(issues).toEqual([
        {
          path: `environment.${name}`,
          rule: 'environment_name',
          message:
            'an environment variable name may not be empty or contain "=" or NUL: got ' +
            JSON.stringify(name),
        },
      ])
    })

    test('reports a BigInt or a non-finite number as a validation problem, never a crash', () => {
      expect(issuesOf({ executable: 'echo', timeout_ms: 10n })).toContainEqual(
        expect.objectContaining({
          path: 'timeout_ms',
          rule: 'type',
          message: expect.stringContaining('got 10n') as string,
        }),
      )
      expect(issuesOf({ executable: 'echo', settle_ms: Number.POSITIVE_INFINITY })).toContainEqual(
        expect.objectContaining({
          path: 'settle_ms',
          message: expect.stringContaining('Infinity') as string,
        }),
      )
    })

    test.for([
      ['executable', { executable: 'a\0b' }],
      ['arguments[0]', { executable: 'echo', arguments: ['a\0b'] }],
      ['environment.A', { executable: 'echo', environment: { A: 'a\0b' } }],
    ])('names the NUL rule for %s', ([issuePath, scenario]) => {
      expect(issuesOf(scenario)).toContainEqual(expect.objectContaining({ path: issuePath, rule: 'no_nul' }))
    })

    test('rejects an empty environment name', () => {
      expect(issuesOf({ executable: 'echo', environment: { '': 'x' } }).map((found) => found.path)).toEqual([
        'environment.',
      ])
    })
  })

  describe('terminal size bounds', () => {
    test.for([
      ['terminal.columns', { terminal: { columns: 1, rows: 1, scrollback: 0 } }, 'minimum'],
      ['terminal.columns', { terminal: { columns: 65_536, rows: 1, scrollback: 0 } }, 'maximum'],
      ['terminal.rows', { terminal: { rows: 0 } }, 'minimum'],
      ['terminal.rows', { terminal: { columns: 2, rows: 65_536, scrollback: 0 } }, 'maximum'],
      ['events[0].columns', { events: [{ type: 'resize', at_ms: 0, columns: 1, rows: 24 }] }, 'minimum'],
      ['events[0].rows', { events: [{ type: 'resize', at_ms: 0, columns: 80, rows: 0 }] }, 'minimum'],
    ] as const)('rejects an out-of-range %s (%o)', ([path, fields, rule]) => {
      expect(issuesOf({ executable: 'echo', ...fields })).toContainEqual(issue(path, rule))
    })

    test.for([
      { columns: 2, rows: 1, scrollback: 0 },
      { columns: 65_535, rows: 1, scrollback: 0 },
      { columns: 2, rows: 65_535, scrollback: 0 },
    ])('accepts the boundary size $columns×$rows', (terminal) => {
      expect(validateScenario({ executable: 'echo', terminal }).terminal).toEqual({
        ...terminal,
        answer_queries: true,
        width_model: 'grapheme-clusters-v1',
      })
    })
  })

  describe('NUL characters', () => {
    test.for([
      ['executable', { executable: 'ec\0ho' }],
      ['arguments[1]', { executable: 'echo', arguments: ['a', 'b\0'] }],
      ['environment.NAME', { executable: 'echo', environment: { NAME: 'v\0' } }],
      // A field name that needs an escape is quoted in the path, so it cannot fake a line of the message.
      ['environment."A\\x00B"', { executable: 'echo', environment: { 'A\0B': 'v' } }],
      ['working_directory', { executable: 'echo', working_directory: 'dir\0' }],
      ['filesystem_observation_paths[0]', { executable: 'echo', filesystem_observation_paths: ['\0'] }],
      ['events[0].data', { executable: 'cat', events: [{ type: 'input', at_ms: 0, data: 'a\0' }] }],
      [
        'normalization.patterns[0].pattern',
        { executable: 'echo', normalization: { patterns: [{ pattern: '\0', replacement: '' }] } },
      ],
    ] as const)('rejects a NUL character in %s', ([path, input]) => {
      const issues = issuesOf(input)
      expect(issues.map((found) => found.path)).toEqual([path])
    })

    test('names the NUL character in the message', () => {
      expect(issuesOf({ executable: 'ec\0ho' })[0]?.message).toContain('NUL')
    })
  })

  describe('signal events', () => {
    test.for(SCENARIO_SIGNALS)('accepts %s', (signal) => {
      const scenario = validateScenario({
        executable: 'sleep',
        events: [{ type: 'signal', at_ms: 0, signal }],
      })
      expect(scenario.events).toEqual([{ type: 'signal', at_ms: 0, signal }])
    })

    test.for(['SIGSEGV', 'SIGFOO', 'INT', 'sigint', 15, ''])('rejects the signal %j', (signal) => {
      const issues = issuesOf({ executable: 'sleep', events: [{ type: 'signal', at_ms: 0, signal }] })
      expect(issues).toEqual([issue('events[0].signal', 'choice')])
      expect(issues[0]?.message).toContain('"SIGTERM"')
    })

    test('rejects an unknown event type and lists the valid ones', () => {
      const issues = issuesOf({ executable: 'echo', events: [{ type: 'wait', at_ms: 0 }] })
      expect(issues).toEqual([issue('events[0].type', 'choice')])
      expect(issues[0]?.message).toContain('"input", "resize", "signal"')
    })
  })

  describe('errors', () => {
    test('throws a ReaError with code INVALID_SCENARIO whose issues have path, rule and message', () => {
      const error = scenarioRejection({ executable: 'echo', timeout_ms: 0 })
      expect(error).toBeInstanceOf(Error)
      expect(error.name).toBe('ReaError')
      expect(error.code).toBe('INVALID_SCENARIO')
      expect(error.message).toContain('nothing was run')
      expect(error.issues).toEqual([{ path: 'timeout_ms', rule: 'minimum', message: 'must be ≥ 1: got 0' }])
    })

    test.for([
      ['null', null],
      ['an array', []],
      ['a string', 'echo'],
    ] as const)('rejects %s as the whole scenario with an empty path', ([, input]) => {
      expect(issuesOf(input)).toEqual([issue('', 'type')])
    })

    test('requires the executable', () => {
      expect(issuesOf({})).toEqual([issue('executable', 'required')])
    })

    test('names the offending value in type errors', () => {
      const [found] = issuesOf({ executable: 'echo', timeout_ms: 'soon' })
      expect(found).toMatchObject({ path: 'timeout_ms', rule: 'type' })
      expect(found?.message).toContain('"soon"')
    })

    test('reports every structural and semantic problem at once', () => {
      const error = scenarioRejection({
        executable: 'echo',
        bogus: true,
        timeout_ms: 1000,
        terminal: { columns: 1, rows: 24 },
        environment: { REA_RUN_TOKEN: 'x' },
        events: [
          { type: 'input', at_ms: 500, data: 'a', extra: 1 },
          { type: 'input', at_ms: 400, data: 'b' },
          { type: 'resize', at_ms: 2000, columns: 1000, rows: 1000 },
        ],
      })
      expect(error.issues).toEqual(
        expect.arrayContaining([
          issue('bogus', 'unknown_field'),
          issue('terminal.columns', 'minimum'),
          issue('events[0].extra', 'unknown_field'),
          issue('events[1].at_ms', 'event_order'),
          issue('events[2].at_ms', 'event_within_timeout'),
          issue('events[2]', 'cell_budget'),
          issue('environment.REA_RUN_TOKEN', 'reserved_variable'),
        ]),
      )
      expect(error.issues).toHaveLength(7)
      expect(error.message).toContain('7 problems')
    })

    test('keeps checking semantic rules when a field has the wrong type', () => {
      const issues = issuesOf({
        executable: 'echo',
        timeout_ms: 'long',
        events: [
          { type: 'input', at_ms: 20, data: 'a' },
          { type: 'input', at_ms: 10, data: 'b' },
        ],
      })
      expect(issues).toEqual([issue('timeout_ms', 'type'), issue('events[1].at_ms', 'event_order')])
    })
  })
})
