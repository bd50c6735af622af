import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parseTraceSpec, readTraceSpecFile, TRACE_SPEC_FORMAT } from '../../../../src/compare/trace/index.js'
import { formatReaError } from '../../../../src/errors.js'
import { rejection, asyncRejection } from '../../../helpers/rejection.js'

const header = { format: TRACE_SPEC_FORMAT, format_version: 1 }

const issue = (issuePath: string, rule: string) =>
  expect.objectContaining({ path: issuePath, rule }) as unknown

describe('parseTraceSpec', () => {
  test('applies defaults: count 1 and no order', () => {
    const spec = parseTraceSpec({ ...header, events: [{ id: 'done', line: 'done' }] })
    expect(spec).toEqual({ ...header, events: [{ id: 'done', line: 'done', count: 1 }], order: [] })
  })

  test('accepts every event kind', () => {
    const events = [
      { id: 'l', line: 'ready', count: 2 },
      { id: 'i', interaction: { event_index: 0, type: 'input', outcome: 'dispatched' } },
      { id: 'e', exit: { reason: 'timeout', code: null, signal: 9 } },
      { id: 'f', file: { path: 'root_0:report.json', effect: 'modified' } },
    ]
    expect(parseTraceSpec({ ...header, events, order: [{ before: 'l', after: 'i' }] }).events).toEqual(events)
  })

  test('rejects a document that is not a trace specification with one issue on format', () => {
    const error = rejection(() =>
      parseTraceSpec({ format: 'rea.process-capture.evidence', events: 3 }, 'capture.json'),
    )
    expect(error.code).toBe('INVALID_TRACE_SPEC')
    expect(error.issues).toEqual([issue('format', 'format')])
    expect(error.message).toContain('capture.json')
    expect(formatReaError(error)).toContain('"rea.process-capture.trace-spec"')
  })

  test('rejects a non-object', () => {
    expect(rejection(() => parseTraceSpec([1, 2])).issues).toEqual([issue('', 'type')])
  })

  test('rejects an unsupported version', () => {
    const error = rejection(() => parseTraceSpec({ ...header, format_version: 2, events: [] }))
    expect(error.issues).toEqual([issue('format_version', 'choice')])
  })

  test('rejects unknown fields at the top, in an event and inside an event body', () => {
    const error = rejection(() =>
      parseTraceSpec({
        ...header,
        evnts: [],
        events: [
          { id: 'a', line: 'a', colour: 'red' },
          { id: 'b', exit: { reason: 'exited', cod: 0 } },
        ],
      }),
    )
    expect(error.issues).toEqual(
      expect.arrayContaining([
        issue('evnts', 'unknown_field'),
        issue('events[0].colour', 'unknown_field'),
        issue('events[1].exit.cod', 'unknown_field'),
      ]),
    )
    const message = error.issues.find((entry) => entry.path === 'events[1].exit.cod')?.message
    expect(message).toContain('code')
  })

  test('requires exactly one kind per event and names what it got', () => {
    const error = rejection(() =>
      parseTraceSpec({
        ...header,
        events: [{ id: 'a' }, { id: 'b', line: 'x', exit: { reason: 'exited' } }],
      }),
    )
    expect(error.issues).toEqual([issue('events[0]', 'event_kind'), issue('events[1]', 'event_kind')])
    expect(error.issues[1]?.message).toContain('got line and exit')
  })

  test('reports field rules inside an event with their path', () => {
    const error = rejection(() =>
      parseTraceSpec({
        ...header,
        events: [
          { id: '', line: 'a', count: 0 },
          { id: 'b', interaction: { event_index: -1, outcome: 'sent' } },
          { id: 'c', file: { path: 'out/a.txt', effect: 'unchanged' } },
        ],
      }),
    )
    expect(error.issues).toEqual(
      expect.arrayContaining([
        issue('events[0].id', 'minimum'),
        issue('events[0].count', 'minimum'),
        issue('events[1].interaction.event_index', 'minimum'),
        issue('events[1].interaction.outcome', 'choice'),
        issue('events[2].file.path', 'format'),
        issue('events[2].file.effect', 'choice'),
      ]),
    )
    const pathIssue = error.issues.find((entry) => entry.path === 'events[2].file.path')
    expect(pathIssue?.message).toBe(
      'must be an entry key as in normalized_result.files_after: a root alias, a colon and the path below it, e.g. "root_0:report.json" (or "root_0:." for the root itself): got "out/a.txt"',
    )
  })

  test('allows count only on line events', () => {
    const error = rejection(() =>
      parseTraceSpec({ ...header, events: [{ id: 'e', exit: { reason: 'exited' }, count: 2 }] }),
    )
    expect(error.issues).toEqual([issue('events[0].count', 'count_not_applicable')])
  })

  test('rejects duplicate ids', () => {
    const error = rejection(() =>
      parseTraceSpec({
        ...header,
        events: [
          { id: 'a', line: 'one' },
          { id: 'a', line: 'two' },
        ],
      }),
    )
    expect(error.issues).toEqual([issue('events[1].id', 'duplicate_id')])
    expect(error.issues[0]?.message).toContain('events[0]')
  })

  test.for([
    [
      'the same line',
      [
        { id: 'a', line: 'x' },
        { id: 'b', line: 'x' },
      ],
      'events[1].line',
    ],
    [
      'the same scenario event',
      [
        { id: 'a', interaction: { event_index: 0, outcome: 'dispatched' } },
        { id: 'b', interaction: { event_index: 0, outcome: 'skipped' } },
      ],
      'events[1].interaction.event_index',
    ],
    [
      'two exits',
      [
        { id: 'a', exit: { reason: 'exited' } },
        { id: 'b', exit: { reason: 'timeout' } },
      ],
      'events[1].exit',
    ],
    [
      'the same path',
      [
        { id: 'a', file: { path: 'root_0:x', effect: 'created' } },
        { id: 'b', file: { path: 'root_0:x', effect: 'modified' } },
      ],
      'events[1].file.path',
    ],
  ] as const)('rejects two events that accept %s', ([, events, issuePath]) => {
    expect(rejection(() => parseTraceSpec({ ...header, events })).issues).toEqual([
      issue(issuePath, 'duplicate_event'),
    ])
  })

  test.for([
    ['a newline', 'a\nb'],
    ['a trailing space', 'done '],
    ['a trailing carriage return', 'done\r'],
    ['an escape sequence', '\u001b[32mdone'],
    ['only spaces', '   '],
    ['nothing', ''],
  ])('rejects a line with %s, which could never match', ([, line]) => {
    const error = rejection(() => parseTraceSpec({ ...header, events: [{ id: 'a', line }] }))
    expect(error.issues).toEqual([issue('events[0].line', 'unmatchable_line')])
  })

  test('shows the text to write when a line could never match', () => {
    const error = rejection(() =>
      parseTraceSpec({ ...header, events: [{ id: 'a', line: '\u001b[1mall done\u001b[0m \r' }] }),
    )
    expect(error.issues[0]?.message).toContain('so write "all done"')
  })

  test('rejects order constraints that name unknown events and lists the ids', () => {
    const error = rejection(() =>
      parseTraceSpec({ ...header, events: [{ id: 'a', line: 'a' }], order: [{ before: 'a', after: 'b' }] }),
    )
    expect(error.issues).toEqual([issue('order[0].after', 'unknown_event')])
    expect(error.issues[0]?.message).toContain('"a"')
  })

  test('rejects ordering a file effect, which has no position in the journal', () => {
    const error = rejection(() =>
      parseTraceSpec({
        ...header,
        events: [
          { id: 'a', line: 'a' },
          { id: 'f', file: { path: 'root_0:a', effect: 'created' } },
        ],
        order: [{ before: 'a', after: 'f' }],
      }),
    )
    expect(error.issues).toEqual([issue('order[0].after', 'unobservable_order')])
  })

  test('rejects an event ordered before itself', () => {
    const error = rejection(() =>
      parseTraceSpec({ ...header, events: [{ id: 'a', line: 'a' }], order: [{ before: 'a', after: 'a' }] }),
    )
    expect(error.issues).toEqual([issue('order[0]', 'order_cycle')])
  })

  test('reports a cycle with its events and constraints', () => {
    const error = rejection(() =>
      parseTraceSpec({
        ...header,
        events: ['a', 'b', 'c', 'd'].map((id) => ({ id, line: id })),
        order: [
          { before: 'a', after: 'b' },
          { before: 'd', after: 'a' },
          { before: 'b', after: 'c' },
          { before: 'c', after: 'a' },
        ],
      }),
    )
    expect(error.issues).toEqual([issue('order[3]', 'order_cycle')])
    expect(error.issues[0]?.message).toContain('"a" → "b" → "c" → "a" (order[0], order[2], order[3])')
  })

  test('accepts a diamond, which is a partial order and not a cycle', () => {
    const events = ['s', 'a', 'b', 'end'].map((id) => ({ id, line: id }))
    const order = [
      { before: 's', after: 'a' },
      { before: 's', after: 'b' },
      { before: 'a', after: 'end' },
      { before: 'b', after: 'end' },
    ]
    expect(parseTraceSpec({ ...header, events, order }).order).toEqual(order)
  })

  test('collects problems of every kind in one error', () => {
    const error = rejection(() =>
      parseTraceSpec({
        ...header,
        extra: true,
        events: [{ id: 'a', line: 'a ' }, { id: 'a', line: 'b' }, { nope: 1 }],
        order: [{ before: 'a', after: 'zzz' }],
      }),
    )
    expect(error.issues.map((entry) => entry.rule).sort()).toEqual(
      ['duplicate_id', 'event_kind', 'unknown_event', 'unknown_field', 'unmatchable_line'].sort(),
    )
    expect(error.message).toMatch(/^Trace specification is not a valid trace specification \(5 problems\):/)
  })
})

describe('readTraceSpecFile', () => {
  let directory: string
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'rea-trace-'))
  })
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true })
  })

  test('reads and validates a file', async () => {
    const file = path.join(directory, 'ok.json')
    await writeFile(file, JSON.stringify({ ...header, events: [{ id: 'x', line: 'x' }] }))
    expect((await readTraceSpecFile(file)).events).toHaveLength(1)
  })

  test('names the file and the error code when it cannot be read', async () => {
    const file = path.join(directory, 'missing.json')
    const error = await asyncRejection(() => readTraceSpecFile(file))
    expect(error.code).toBe('INVALID_TRACE_SPEC')
    expect(error.message).toBe(
      `Trace specification ${file} could not be read (ENOENT): no such file or directory.`,
    )
  })

  test('says when the file is empty', async () => {
    const file = path.join(directory, 'empty.json')
    await writeFile(file, '  \n')
    expect((await asyncRejection(() => readTraceSpecFile(file))).message).toContain('is empty')
  })

  test('says when the file is not JSON', async () => {
    const file = path.join(directory, 'bad.json')
    await writeFile(file, '{ "format": ')
    const error = await asyncRejection(() => readTraceSpecFile(file))
    expect(error.code).toBe('INVALID_TRACE_SPEC')
    expect(error.message).toMatch(/is not valid JSON: .+\.$/)
  })

  test('names the file in validation errors', async () => {
    const file = path.join(directory, 'invalid.json')
    await writeFile(file, JSON.stringify({ ...header, events: [{ id: 'x' }] }))
    const error = await asyncRejection(() => readTraceSpecFile(file))
    expect(error.message).toContain(file)
    expect(error.issues).toEqual([issue('events[0]', 'event_kind')])
  })
})
